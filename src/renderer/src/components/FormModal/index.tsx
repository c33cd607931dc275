/**
 * A modal with one form: it opens with the focus in its first field; OK (or Enter in a field)
 * submits, once: while the save runs the OK button spins and another Enter or click sends nothing;
 * a failed save keeps the modal open with everything the user typed and shows the server's message
 * above the fields — until the user changes the field the message names (`用户名：…`, `站点 UID … 已被 … 使用`):
 * that message is about a value no longer there; a successful save closes it.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { Alert, Form, Modal, type FormInstance } from 'antd'
import { messages } from '@shared/messages'
import { fieldLabels } from '@shared/validation'
import { RequestError } from '@renderer/services/request'

export interface FormModalProps<V> {
  open: boolean
  title: ReactNode
  okText?: string
  /** Red OK button (e.g. a password reset). */
  danger?: boolean
  initialValues?: Partial<V>
  /** Saves; a rejection keeps the modal open and shows its message. */
  onSubmit(values: V): Promise<unknown>
  onClose(): void
  children: ReactNode
  width?: number
  form?: FormInstance<V>
  /** Prefixes the fields' ids (`<name>_<field>`); unique by default, so a field never shares its id
   * (and its label) with a search box of the page behind the modal. */
  name?: string
  /** Each change of the values (a dialog keeping a draft of them). */
  onValuesChange?(changed: Partial<V>, values: V): void
  /** Shown above the fields (e.g. that unsaved values were restored). */
  notice?: ReactNode
}

/**
 * Whether a server message is about this field: it starts with the field's Chinese label (the server's
 * `fieldLabels`, as in `用户名：只能包含…`, `用户名已存在`, `站点 UID 1001 已被 alice 使用`).
 */
export function messageNamesField(message: string, field: string): boolean {
  const label = Object.hasOwn(fieldLabels, field) ? fieldLabels[field] : undefined
  return label !== undefined && message.startsWith(label)
}

/** The message of a failed call (RequestError: the server's msg). */
export function errorMessage(error: unknown): string {
  return error instanceof RequestError ? error.msg : messages.requestFailed
}

/**
 * A ref for a dialog's body: each opening puts the focus in its first enabled field (text box,
 * select, text area). It runs after the dialog's own effects, so the dialog still gives the focus
 * back to the button that opened it when it closes.
 */
export function useFirstFieldFocus(open: boolean) {
  const body = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const timer = window.setTimeout(() =>
      body.current?.querySelector<HTMLElement>('input:not([type="hidden"]):not([disabled]), textarea:not([disabled])')?.focus(),
    )
    return () => window.clearTimeout(timer)
  }, [open])
  return body
}

export default function FormModal<V extends object>({
  open,
  title,
  okText = '确定',
  danger,
  initialValues,
  onSubmit,
  onClose,
  children,
  width,
  form: outerForm,
  name,
  onValuesChange,
  notice,
}: FormModalProps<V>) {
  const uniqueId = useId()
  const formName = name ?? `modal${uniqueId.replace(/[^a-zA-Z0-9]/g, '')}`
  const [ownForm] = Form.useForm<V>()
  const form = outerForm ?? ownForm
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  // Set before the first await: a second Enter (or a click) before React re-renders sends nothing.
  const inFlight = useRef(false)
  const body = useFirstFieldFocus(open)
  // Each opening may submit again (after a save it stayed "in flight", see finish).
  useEffect(() => {
    if (open) inFlight.current = false
  }, [open])

  const finish = async (values: V) => {
    if (inFlight.current) return
    inFlight.current = true
    setSaving(true)
    setError(null)
    try {
      await onSubmit(values)
      // Saved: it stays "in flight" until the next opening, so an Enter still being validated sends nothing.
      setSaving(false)
      onClose()
    } catch (failure) {
      inFlight.current = false
      setSaving(false)
      setError(errorMessage(failure))
    }
  }

  const close = () => {
    setError(null)
    onClose()
  }

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText="取消"
      okButtonProps={{ danger }}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={close}
      destroyOnHidden
      width={width}
    >
      <div ref={body}>
        <Form<V>
          form={form}
          name={formName}
          layout="vertical"
          initialValues={initialValues}
          onFinish={finish}
          onValuesChange={(changed: Partial<V>, values: V) => {
            // The user corrected the field the server refused: its message no longer describes what is there.
            if (error && Object.keys(changed).some((field) => messageNamesField(error, field))) setError(null)
            onValuesChange?.(changed, values)
          }}
          preserve={false}
          style={{ marginTop: 16 }}
        >
          {error && <Alert type="error" showIcon title={error} role="alert" data-testid="form-error" style={{ marginBottom: 16 }} />}
          {notice}
          {children}
          {/* Enter in any field submits the form (implicit submission needs a submit button). */}
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </Form>
      </div>
    </Modal>
  )
}
