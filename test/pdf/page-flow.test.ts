import { describe, expect, it } from "vitest";
import { type Block, type PageMark, paginate } from "../../src/pdf/page-flow";

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

  it("starts a page inside a table with the table's heading", () => {
    const head = block(20);
    const rows = [block(50), block(50), block(50)].map((row) => ({
      ...row,
      runningHead: head,
    }));
    const pages = paginate(rows, { top: 100, bottom: 0 });
    expect(
      pages.map((page) =>
        page.map(({ block, top }) => [
          block === head ? "head" : rows.indexOf(block as never),
          top,
        ]),
      ),
    ).toEqual([
      [
        [0, 100],
        [1, 50],
      ],
      [
        ["head", 100],
        [2, 80],
      ],
    ]);
  });

  it("keeps with the next blocks only as many as a page holds", () => {
    expect(
      layout([block(40), block(10, true), block(60, true), block(80)]),
    ).toEqual([
      [[0, 100]],
      [
        [1, 100],
        [2, 90],
      ],
      [[3, 100]],
    ]);
  });

  it("splits a block taller than a page where the page ends, and its rest on the next pages", () => {
    const heights: number[][] = [];
    const splitting = (height: number): Block => ({
      height,
      split: (room) =>
        room < 20 ? null : [splitting(room), splitting(height - room)],
      draw: () => {},
    });
    const pages = paginate([block(30), splitting(230), block(30)], {
      top: 100,
      bottom: 0,
    });
    for (const page of pages)
      heights.push(page.map(({ block }) => block.height));
    expect(heights).toEqual([[30, 70], [100], [60, 30]]);
  });

  it("splits running text wherever the page ends, keeps its heading with its lead, and tells a block the page it prints on", () => {
    const flowing = (height: number, mark?: PageMark): Block => ({
      height,
      flows: true,
      leadHeight: 20,
      mark,
      split: (room) =>
        room < 20 ? null : [{ ...block(room), mark }, flowing(height - room)],
      draw: () => {},
    });
    const heights = (blocks: Block[]) =>
      paginate(blocks, { top: 100, bottom: 0 }).map((page) =>
        page.map(({ block }) => block.height),
      );
    const text: PageMark = {};
    const after: PageMark = {};
    // Running text less tall than a page still splits where the page ends.
    expect(
      heights([block(50), flowing(80, text), { ...block(10), mark: after }]),
    ).toEqual([
      [50, 50],
      [30, 10],
    ]);
    expect([text.page, after.page]).toEqual([1, 2]);
    // A heading goes to the next page when its text's lead does not fit.
    expect(heights([block(70), block(15, true), flowing(80)])).toEqual([
      [70],
      [15, 80],
    ]);
  });
});
