/**
 * Toasts for code outside React components (the request wrapper, stores).
 * antd's static `message` cannot read the theme/locale context, so the app binds the
 * context-aware instance from `App.useApp()` here once it is mounted (see FeedbackBinder).
 */
import { App, message as staticMessage } from 'antd'

type MessageInstance = ReturnType<typeof App.useApp>['message']

let bound: MessageInstance | null = null

export function bindMessageApi(api: MessageInstance | null): void {
  bound = api
}

/** The bound instance, or antd's static one before the app is mounted. */
export function messageApi(): MessageInstance {
  return bound ?? staticMessage
}

export function toastError(text: string): void {
  void messageApi().error(text)
}

export function toastSuccess(text: string): void {
  void messageApi().success(text)
}

export function toastInfo(text: string): void {
  void messageApi().info(text)
}
