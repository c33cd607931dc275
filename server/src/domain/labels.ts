/** Torrent labels (docs/domain.md §3), in TypeScript (reference) and SQL (what the derivation runs). */
import { type RawBuilder, sql } from 'kysely'
import { CompletionLabel, SeedType } from '@shared/enums'

export function completionLabel(seedType: SeedType, keepers: number, targetKeepers: number): CompletionLabel {
  if (seedType === SeedType.Official)
    return keepers >= targetKeepers ? CompletionLabel.OfficialComplete : CompletionLabel.OfficialIncomplete
  return keepers >= 1 ? CompletionLabel.UnofficialComplete : CompletionLabel.UnofficialIncomplete
}

export function completionLabelSql(seedType: RawBuilder<unknown>, keepers: RawBuilder<unknown>, targetKeepers: number): RawBuilder<number> {
  return sql<number>`case
    when ${seedType} = ${sql.lit(SeedType.Official)} and ${keepers} >= ${sql.lit(targetKeepers)} then ${sql.lit(CompletionLabel.OfficialComplete)}
    when ${seedType} = ${sql.lit(SeedType.Official)} then ${sql.lit(CompletionLabel.OfficialIncomplete)}
    when ${keepers} >= 1 then ${sql.lit(CompletionLabel.UnofficialComplete)}
    else ${sql.lit(CompletionLabel.UnofficialIncomplete)}
  end`
}

/**
 * Seed type by the rules: a manual override wins; else official when the torrent's team is an
 * official team or it carries an official tag, and it is at least `minSizeGiB`.
 */
export function seedTypeByRules(input: {
  override: SeedType | null
  officialTeamOrTag: boolean
  size: number
  minSizeBytes: number
}): SeedType {
  if (input.override !== null) return input.override
  return input.officialTeamOrTag && input.size >= input.minSizeBytes ? SeedType.Official : SeedType.Unofficial
}
