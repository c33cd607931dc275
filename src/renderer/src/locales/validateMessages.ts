/**
 * Chinese form validation messages (the whole interface is Chinese). `${label}`, `${len}` … are antd's
 * placeholders, filled in by the form — these are plain strings, not template literals.
 */
import type { FormProps } from 'antd'

type ValidateMessages = NonNullable<FormProps['validateMessages']>

const typeMessage = '${label}不是有效的${type}'

export const validateMessages: ValidateMessages = {
  default: '${label}校验出错',
  required: '请输入${label}',
  enum: '${label}须为[${enum}]之一',
  whitespace: '${label}不能只有空白字符',
  date: {
    format: '${label}的日期格式不正确',
    parse: '${label}无法解析为日期',
    invalid: '${label}不是有效的日期',
  },
  types: {
    string: typeMessage,
    method: typeMessage,
    array: typeMessage,
    object: typeMessage,
    number: typeMessage,
    date: typeMessage,
    boolean: typeMessage,
    integer: typeMessage,
    float: typeMessage,
    regexp: typeMessage,
    email: typeMessage,
    url: typeMessage,
    hex: typeMessage,
  },
  string: {
    len: '${label}长度须为${len}个字符',
    min: '${label}至少${min}个字符',
    max: '${label}最多${max}个字符',
    range: '${label}长度须在${min}到${max}个字符之间',
  },
  number: {
    len: '${label}须等于${len}',
    min: '${label}不能小于${min}',
    max: '${label}不能大于${max}',
    range: '${label}须在${min}到${max}之间',
  },
  array: {
    len: '须选择${len}个${label}',
    min: '至少选择${min}个${label}',
    max: '最多选择${max}个${label}',
    range: '${label}须选择${min}到${max}个',
  },
  pattern: {
    mismatch: '${label}格式不正确',
  },
}
