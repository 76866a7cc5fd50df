/** A series' words: statuses come as `in-progress`, `pending`; people read "In progress", "Pending". */
export const seriesLabel = (series: string): string => {
  const words = series.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};
