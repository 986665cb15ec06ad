const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

/**
 * The distinct words of a text, case-folded and NFKC-normalised. Word boundaries
 * come from Unicode segmentation (Intl.Segmenter), so scripts without spaces work too.
 */
export function distinctWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const segment of segmenter.segment(text.normalize('NFKC'))) {
    if (segment.isWordLike) words.add(segment.segment.toLocaleLowerCase());
  }
  return words;
}
