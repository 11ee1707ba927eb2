import { clear, h } from "./dom";
export function replay(main: HTMLElement, id: string): () => void {
  clear(main, h("p", {}, `Replay of ${id}: not built yet.`));
  return () => {};
}
