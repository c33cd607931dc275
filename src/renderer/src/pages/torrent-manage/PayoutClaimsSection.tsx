/**
 * 发放时结算认领 on the rules form (rules `settleClaims`, off by default): paying into a NexusPHP
 * site also does the site's monthly claim bookkeeping, with the deduction per claim removed.
 */
import { Card, Col, Form, Row, Switch } from 'antd'
import { DEFAULT_CLAIM_REMOVE_DEDUCTION, type RuleBody } from '@shared/entities'
import { fieldLabels } from '@shared/validation'
import NumberInput from '@renderer/components/NumberInput'
import { ruleNumberRule } from '@renderer/utils/formLimits'

/** Off is saved as "no field", as rules from before the choice. */
export const claimsToSave = (values: Pick<RuleBody, 'settleClaims' | 'claimRemoveDeduction'>) => ({
  settleClaims: values.settleClaims ? true : undefined,
  claimRemoveDeduction: values.claimRemoveDeduction ?? undefined,
})

export default function PayoutClaimsSection() {
  const on = Form.useWatch<boolean | undefined>('settleClaims')
  return (
    <Card size="small" title="发放到站点时结算认领" data-testid="payout-claims">
      <Row gutter={24}>
        <Col xs={24} md={12} xl={8}>
          <Form.Item
            name="settleClaims"
            label={fieldLabels.settleClaims}
            valuePropName="checked"
            extra="只对 NexusPHP 站点：发放工资时同时做站点每月认领结算对认领做的事——当月达标和当月新认领的重新开始计算，当月之前认领、至今未达标的取消认领并扣除魔力（是否达标按站点自己的认领达标设置，与站点认领页面一致，不按本页的达标标准）。整月发放时工资为 0 但有认领的保种员也一并结算。站点自己的认领结算不能先于控制台：认领只有保种组在用时关闭站点的认领结算定时任务，否则每月在它运行之前完成整月发放。"
          >
            <Switch checkedChildren="开启" unCheckedChildren="关闭" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12} xl={8}>
          <Form.Item
            name="claimRemoveDeduction"
            label={fieldLabels.claimRemoveDeduction}
            extra={`每取消一个未达标认领扣除的魔力；留空为 ${DEFAULT_CLAIM_REMOVE_DEDUCTION}（NexusPHP 的默认值）。`}
            rules={[ruleNumberRule('claimRemoveDeduction')]}
          >
            <NumberInput placeholder={String(DEFAULT_CLAIM_REMOVE_DEDUCTION)} disabled={!on} suffix="魔力" style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
    </Card>
  )
}
