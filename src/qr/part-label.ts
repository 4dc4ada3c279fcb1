/**
 * The label printed under each code of a prescription on several QR codes: `k/N`, the numbering
 * ChTransmissionFormat itself gives the parts, so it reads the same in every language. Drawn from
 * a 5 × 7 dot font of the digits and the slash, each dot `dot` pixels square.
 */

/** Each glyph as seven rows of five dots, `#` black. */
const GLYPHS: Readonly<Record<string, readonly string[]>> = {
  '0': [' ### ', '#   #', '#  ##', '# # #', '##  #', '#   #', ' ### '],
  '1': ['  #  ', ' ##  ', '  #  ', '  #  ', '  #  ', '  #  ', ' ### '],
  '2': [' ### ', '#   #', '    #', '   # ', '  #  ', ' #   ', '#####'],
  '3': ['#####', '   # ', '  #  ', '   # ', '    #', '#   #', ' ### '],
  '4': ['   # ', '  ## ', ' # # ', '#  # ', '#####', '   # ', '   # '],
  '5': ['#####', '#    ', '#### ', '    #', '    #', '#   #', ' ### '],
  '6': ['  ## ', ' #   ', '#    ', '#### ', '#   #', '#   #', ' ### '],
  '7': ['#####', '    #', '   # ', '  #  ', ' #   ', ' #   ', ' #   '],
  '8': [' ### ', '#   #', '#   #', ' ### ', '#   #', '#   #', ' ### '],
  '9': [' ### ', '#   #', '#   #', ' ####', '    #', '   # ', ' ##  '],
  '/': ['    #', '    #', '   # ', '  #  ', ' #   ', '#    ', '#    '],
};
const GLYPH_WIDTH = 5;
const GLYPH_HEIGHT = 7;
/** Dots between two glyphs, and of white above and below the text in the band. */
const SPACING = 1;
const PADDING = 2;

/** The text under part `index` (from 1) of `total`. */
export function partLabel(index: number, total: number): string {
  return `${index}/${total}`;
}

/** Pixels per dot of the label under a code `width` pixels wide: legible, never wider than it. */
export function labelDot(width: number): number {
  return Math.max(1, Math.floor(width / 80));
}

/** Height in pixels of the band that holds a label drawn with `dot`-pixel dots. */
export function labelBandHeight(dot: number): number {
  return (GLYPH_HEIGHT + 2 * PADDING) * dot;
}

/**
 * The band under a code as bitonal scanlines `side` pixels wide (see `./bitonal-png.ts`): `text`
 * in black, centred, on white.
 */
export function labelBand(text: string, side: number, dot: number): Uint8Array[] {
  const stride = Math.ceil(side / 8);
  const rows = Array.from({ length: labelBandHeight(dot) }, () => Buffer.alloc(stride, 0xff));
  const textWidth = (text.length * (GLYPH_WIDTH + SPACING) - SPACING) * dot;
  const left = Math.max(0, Math.floor((side - textWidth) / 2));
  [...text].forEach((char, i) => {
    const glyph = GLYPHS[char];
    if (glyph === undefined) throw new RangeError(`no glyph for ${JSON.stringify(char)}`);
    const x0 = left + i * (GLYPH_WIDTH + SPACING) * dot;
    glyph.forEach((line, gy) => {
      for (let gx = 0; gx < GLYPH_WIDTH; gx++) {
        if (line[gx] !== '#') continue;
        for (let y = (PADDING + gy) * dot; y < (PADDING + gy + 1) * dot; y++) {
          for (let x = x0 + gx * dot; x < Math.min(side, x0 + (gx + 1) * dot); x++) {
            rows[y]![x >> 3]! &= ~(0x80 >> (x & 7));
          }
        }
      }
    });
  });
  return rows;
}
