// The steps of `npm run deploy`, in their order: expand, switch, then the
// data steps of the new Worker (docs/operations.md "Deploying"). Each step
// leaves a state the previous release's Worker still serves, since the
// migrations only add (test/db/migrations-expand-only.test.ts) and data moves
// only after the switch; test/e2e/deploy-steps.test.ts runs the previous
// release between the steps on a local state.
import { uploadFonts } from "../upload-fonts";
import type { DatabaseTarget } from "./d1";
import { type OpsTarget, opsClient } from "./ops-client";
import { migrateShards } from "./shards";

export interface DeployTarget {
  databases: DatabaseTarget;
  /**
   * Puts this commit's Workers in the place of the previous ones (`wrangler
   * deploy` of the API Worker, then of the edge Worker), and says how to
   * reach the operations API.
   */
  switchWorker: () => Promise<OpsTarget>;
}

export interface DeployStep {
  name: "expand" | "fonts" | "switch" | "move";
  run: () => Promise<void>;
}

export function deploySteps(target: DeployTarget): DeployStep[] {
  let deployed: OpsTarget | undefined;
  return [
    { name: "expand", run: () => migrateShards(target.databases) },
    { name: "fonts", run: () => uploadFonts(target.databases) },
    {
      name: "switch",
      run: async () => {
        deployed = await target.switchWorker();
      },
    },
    {
      name: "move",
      run: async () => {
        if (!deployed) throw new Error("the data steps run after the switch");
        // Rerun alone with `npm run shards -- upgrade --url …` if this stops.
        const moved = await opsClient(deployed).upgradeShards();
        console.error("Moved to their shards:", moved);
      },
    },
  ];
}
