import { clear, h } from "./dom";
export function table(main: HTMLElement, id: string): () => void {
  clear(main, h("p", {}, `Game ${id}: the table is not built yet.`));
  return () => {};
}
