/**
 * The number box of every form: antd's InputNumber reading full-width digits and decimal points (a Chinese
 * IME in full-width mode) as the digits they show. Use it instead of InputNumber.
 *
 * It takes no `min`/`max`: antd's box drops an out-of-range number while it is typed and rewrites it to the
 * bound on blur (倍率 -2 became 0 without a word). The range belongs to the Form.Item instead
 * (`numberRule` in utils/formLimits): the box keeps what was typed and the field says why it is refused.
 */
// eslint-disable-next-line no-restricted-imports -- the one place that wraps it
import { InputNumber, type InputNumberProps } from 'antd'
import { parseNumberText } from '@renderer/utils/numberText'

// The box reads the parser's text as a decimal ('' for an empty box, which a number could not say);
// antd types the parser as returning the value type, and its own examples cast the text the same way.
const parser = parseNumberText as (text: string | undefined) => unknown as (text: string | undefined) => number

export type NumberInputProps = Omit<InputNumberProps<number>, 'min' | 'max'>

export default function NumberInput(props: NumberInputProps) {
  return <InputNumber<number> parser={parser} {...props} />
}
