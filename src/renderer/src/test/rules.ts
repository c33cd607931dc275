/** A current rule version as GET /config/rules answers it, for the pages' tests to vary. */
import { defaultRuleBody, type Rules } from '@shared/entities'

export const sampleRules: Rules = { ...defaultRuleBody, version: 3, officialTeams: ['FRDS'] }
