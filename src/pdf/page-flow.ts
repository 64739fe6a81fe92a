import type { PageCanvas } from "./drawing";

/** A piece of content that is never split across pages. */
export interface Block {
  readonly height: number;
  /** A heading or a label: it goes to the next page with the block after it. */
  readonly keepWithNext?: boolean;
  /** Draws the block with its top edge at `top`. */
  draw(canvas: PageCanvas, top: number): void;
}

export interface PlacedBlock {
  block: Block;
  top: number;
}

/** The vertical space that content may fill on every page. */
export interface ContentArea {
  top: number;
  bottom: number;
}

/** Height of a block and of every block kept with it. */
function keptHeight(blocks: readonly Block[], start: number): number {
  let height = 0;
  for (let i = start; i < blocks.length; i++) {
    const block = blocks[i] as Block;
    height += block.height;
    if (!block.keepWithNext) break;
  }
  return height;
}

/**
 * Lays blocks out top to bottom, page after page, starting a new page when a
 * block (with the blocks it is kept with) does not fit on the current one.
 * Returns the blocks of each page with their positions.
 */
export function paginate(
  blocks: readonly Block[],
  area: ContentArea,
): PlacedBlock[][] {
  let current: PlacedBlock[] = [];
  const pages = [current];
  let top = area.top;
  blocks.forEach((block, index) => {
    if (current.length > 0 && top - keptHeight(blocks, index) < area.bottom) {
      current = [];
      pages.push(current);
      top = area.top;
    }
    current.push({ block, top });
    top -= block.height;
  });
  return pages;
}
