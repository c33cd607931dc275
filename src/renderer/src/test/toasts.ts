/**
 * Counts the antd message toasts holding `text` that appear from now on — also one that has gone again by the time
 * the test looks (a toast lives 3 s; a test of repeated toasts waits longer than that).
 */
export function watchToasts(text: string): { count(): number; stop(): void } {
  let seen = 0
  const observer = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes)
        if (
          node instanceof HTMLElement &&
          node.matches('.ant-message-notice-wrapper, .ant-message-notice') &&
          node.textContent?.includes(text)
        )
          seen += 1
  })
  observer.observe(document.body, { childList: true, subtree: true })
  return { count: () => seen, stop: () => observer.disconnect() }
}
