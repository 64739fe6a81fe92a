import type { PageCanvas } from "./drawing";

/** Set by the layout to the number of the page its block first prints on. */
export interface PageMark {
  page?: number;
}

/**
 * A piece of content, never split across pages unless it is taller than one
 * or it flows.
 */
export interface Block {
  readonly height: number;
  /** Running text: split wherever a page ends, not only when taller than a page. */
  readonly flows?: boolean;
  /** For a block that flows or splits: the least of it that may start a page. */
  readonly leadHeight?: number;
  /** Told the page this block prints on ("continued on page N"). */
  readonly mark?: PageMark;
  /** A heading or a label: it goes to the next page with the block after it. */
  readonly keepWithNext?: boolean;
  /** Printed first on a page this block starts (a table's repeated heading). */
  readonly runningHead?: Block;
  /**
   * For a block that may be taller than a page: its first part at most
   * `height` tall and the rest, or null when not even its first lines fit.
   */
  split?(height: number): [Block, Block] | null;
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

/** The room a block has on a page of its own, under its running head. */
const roomOnFreshPage = (block: Block, area: ContentArea): number =>
  area.top - (block.runningHead?.height ?? 0) - area.bottom;

/** Whether a block is split wherever it starts: it flows, or is taller than a page. */
const splits = (block: Block, area: ContentArea): boolean =>
  block.split !== undefined &&
  (block.flows === true || block.height > roomOnFreshPage(block, area));

/**
 * Height of a block and of the blocks kept with it, as many of them as a
 * page holds; a block that splits counts for its lead only (nothing for a
 * table's band), since it starts wherever there is room.
 */
function keptHeight(
  blocks: readonly Block[],
  start: number,
  area: ContentArea,
): number {
  const page = roomOnFreshPage(blocks[start] as Block, area);
  let height = 0;
  for (let i = start; i < blocks.length; i++) {
    const block = blocks[i] as Block;
    if (splits(block, area)) {
      if (i > start) height += block.leadHeight ?? 0;
      break;
    }
    if (i > start && height + block.height > page) break;
    height += block.height;
    if (!block.keepWithNext) break;
  }
  return height;
}

/**
 * Lays blocks out top to bottom, page after page, starting a new page when a
 * block (with the blocks it is kept with) does not fit on the current one;
 * a block taller than a page fills the rest of the page and goes on on the
 * next ones. Returns the blocks of each page with their positions.
 */
export function paginate(
  blocks: readonly Block[],
  area: ContentArea,
): PlacedBlock[][] {
  const pending = [...blocks];
  let current: PlacedBlock[] = [];
  const pages = [current];
  let top = area.top;
  let fresh = true;
  const place = (block: Block) => {
    if (block.mark) block.mark.page ??= pages.length;
    current.push({ block, top });
    top -= block.height;
  };
  const newPage = (first: Block) => {
    current = [];
    pages.push(current);
    top = area.top;
    fresh = true;
    if (first.runningHead) place(first.runningHead);
  };
  let index = 0;
  while (index < pending.length) {
    const block = pending[index] as Block;
    const room = top - area.bottom;
    if (splits(block, area) && block.height > room) {
      const parts = block.split?.(room);
      if (parts) {
        place(parts[0]);
        pending[index] = parts[1];
        newPage(parts[1]);
        continue;
      }
      if (!fresh) {
        newPage(block);
        continue;
      }
    } else if (!fresh && keptHeight(pending, index, area) > room) {
      newPage(block);
      continue;
    }
    place(block);
    fresh = false;
    index++;
  }
  return pages;
}
