// `tsx --import ./bench/naive/register.ts …`: lets Node load the naive baseline (see swap.ts).
import { register } from "node:module";

register("./swap.ts", import.meta.url);
