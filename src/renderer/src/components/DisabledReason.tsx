/**
 * A button that cannot be pressed now, with why on hover (`reason` null: the button as it is). The span
 * takes the hover, since a disabled button may not report the pointer.
 */
import type { ReactElement } from 'react'
import { Tooltip } from 'antd'

export default function DisabledReason({ reason, children }: { reason: string | null; children: ReactElement }) {
  if (reason === null) return children
  return (
    <Tooltip title={reason}>
      <span style={{ display: 'inline-block', cursor: 'not-allowed' }} data-testid="disabled-reason">
        {children}
      </span>
    </Tooltip>
  )
}
