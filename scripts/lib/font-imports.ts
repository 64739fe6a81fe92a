// `tsx --import ./scripts/lib/font-imports.ts …`: `.ttf` imports work in Node.
import { register } from "node:module";

register("./font-modules.ts", import.meta.url);
