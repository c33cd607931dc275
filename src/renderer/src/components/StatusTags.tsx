/** Tags for enum values, with the contract's Chinese labels and fixed colours (a status looks the same on every page). */
import { Tag } from 'antd'
import {
  accountStatusLabels,
  assignmentLabels,
  claimStateLabels,
  completionLabels,
  roleLabels,
  seedStatusColors,
  seedStatusLabels,
  seedTypeLabels,
  type AccountStatus,
  type AssignmentLabel,
  type ClaimState,
  type CompletionLabel,
  type Role,
  type SeedStatus,
  type SeedType,
} from '@shared/enums'

const accountStatusColors: Record<AccountStatus, string> = { 0: 'red', 1: 'default', 2: 'green' }
const roleColors: Record<Role, string> = { admin: 'gold', normal: 'blue' }
// Only the seeding status colours are fixed by the product; these pick calm colours that do not
// read as a seeding status (no green/lime/red), so the status column stays the one that stands out.
export const seedTypeColors: Record<SeedType, string> = { 1: 'geekblue', 2: 'default' }
export const claimStateColors: Record<ClaimState, string> = { 1: 'default', 2: 'cyan' }
export const assignmentColors: Record<AssignmentLabel, string> = { 1: 'cyan', 2: 'default' }
export const completionColors: Record<CompletionLabel, string> = { 1: 'green', 2: 'orange', 3: 'blue', 4: 'default' }

export function AccountStatusTag({ status }: { status: AccountStatus }) {
  return <Tag color={accountStatusColors[status]}>{accountStatusLabels[status]}</Tag>
}

export function RoleTag({ role }: { role: Role }) {
  return <Tag color={roleColors[role]}>{roleLabels[role]}</Tag>
}

/** Seeding status of a seed record: 3 green, 4 lime, 2 blue, 6 purple, 7 orange, 8 gold, 1 default, 5 red. */
export function SeedStatusTag({ status }: { status: SeedStatus }) {
  return <Tag color={seedStatusColors[status]}>{seedStatusLabels[status]}</Tag>
}

export function SeedTypeTag({ seedType }: { seedType: SeedType }) {
  return <Tag color={seedTypeColors[seedType]}>{seedTypeLabels[seedType]}</Tag>
}

export function ClaimStateTag({ claimState }: { claimState: ClaimState }) {
  return <Tag color={claimStateColors[claimState]}>{claimStateLabels[claimState]}</Tag>
}

export function AssignmentTag({ assigned }: { assigned: AssignmentLabel }) {
  return <Tag color={assignmentColors[assigned]}>{assignmentLabels[assigned]}</Tag>
}

export function CompletionTag({ completion }: { completion: CompletionLabel }) {
  return <Tag color={completionColors[completion]}>{completionLabels[completion]}</Tag>
}
