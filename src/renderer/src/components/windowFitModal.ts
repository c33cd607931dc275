/**
 * For a modal whose content can outgrow a small window (a plan, a dry run): centred, its body scrolling inside
 * the window, so its 确认 and 取消 stay in view at 1280×720 (at the default top of 100 px they fell below it).
 */
export const WINDOW_FIT_MODAL = {
  centered: true,
  styles: { body: { maxHeight: 'calc(100vh - 200px)', overflowY: 'auto' } },
} as const
