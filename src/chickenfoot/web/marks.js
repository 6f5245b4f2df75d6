// @ts-check
// The review's marks as the pages show them beside a move: the symbols chess readers know.

/** A mark's symbol (a good move, or one not judged, has none). @type {Record<string, string>} */
export const MARK_SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
