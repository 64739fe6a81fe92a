import { describe, expect, it } from "vitest";
import { type Block, paginate } from "../../src/pdf/page-flow";

const block = (height: number, keepWithNext = false): Block => ({
  height,
  keepWithNext,
  draw: () => {},
});

/** Each page as [index of the block, its top] pairs, in a 100-point area. */
const layout = (blocks: Block[]) =>
  paginate(blocks, { top: 100, bottom: 0 }).map((page) =>
    page.map(({ block, top }) => [blocks.indexOf(block), top]),
  );

describe("paginate", () => {
  it("stacks blocks and starts a page when the next one does not fit", () => {
    expect(layout([block(40), block(40), block(40), block(10)])).toEqual([
      [
        [0, 100],
        [1, 60],
      ],
      [
        [2, 100],
        [3, 60],
      ],
    ]);
  });

  it("moves a heading to the next page with the block it introduces", () => {
    expect(layout([block(70), block(10, true), block(30)])).toEqual([
      [[0, 100]],
      [
        [1, 100],
        [2, 90],
      ],
    ]);
  });

  it("places a block taller than a page alone rather than looping", () => {
    expect(layout([block(10), block(150), block(10)])).toEqual([
      [[0, 100]],
      [[1, 100]],
      [[2, 100]],
    ]);
  });
});
