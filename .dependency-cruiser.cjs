// The layers of src/ (docs/architecture.md, "Layers"): a file imports only
// files of its own layer or of a lower one, and no import circles back.
// `npm run layers` checks it; .ci/run fails on any violation.

/** Highest first: [name, files]. Folders of one layer may not import each other. */
const LAYERS = [
  [
    "entry",
    ["^src/(index|edge|app|api-app|edge-app|scheduled|queue|services)\\.ts$"],
  ],
  ["http", ["^src/http/"]],
  ["app-environment", ["^src/(env|config)\\.ts$"]],
  ["openapi", ["^src/openapi/"]],
  ["durable-objects", ["^src/durable-objects/"]],
  ["pdf", ["^src/pdf/"]],
  ["domain", ["^src/domain/"]],
  ["persistence-and-storage", ["^src/db/", "^src/storage/"]],
  ["schemas", ["^src/schemas/"]],
  ["leaf-helpers", ["^src/font-coverage/", "^src/qr/", "^src/cms/"]],
  ["base", ["^src/(errors|clock|failure-log|base64|bytes|once-per)\\.ts$"]],
];

const ranked = LAYERS.flatMap(([, paths]) => paths);

const pointsDown = LAYERS.flatMap(([name, paths], rank) => {
  const above = LAYERS.slice(0, rank).flatMap(([, higher]) => higher);
  return paths
    .map((path) => ({
      name: `${name}-points-down`,
      comment: `${name} imports only its own layer or a lower one.`,
      severity: "error",
      from: { path },
      to: { path: [...above, ...paths.filter((other) => other !== path)] },
    }))
    .filter((rule) => rule.to.path.length > 0);
});

module.exports = {
  forbidden: [
    ...pointsDown,
    {
      name: "in-a-layer",
      comment: "Every file of src/ belongs to a layer of this file.",
      severity: "error",
      from: { path: "^src/", pathNot: ranked },
      to: {},
    },
    {
      name: "into-a-layer",
      comment: "Every file of src/ belongs to a layer of this file.",
      severity: "error",
      from: {},
      to: { path: "^src/", pathNot: ranked },
    },
    {
      name: "no-circular",
      comment: "No import circles back, inside a folder either.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // `import type` counts: a type is a dependency too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".json"] },
  },
};
