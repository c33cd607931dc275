/**
 * What a member's 做种数 counts, wherever it is shown beside their records by status (保种员 and its
 * member drawer, the dashboard's own block): it is not the sum of any of the status tags. The server counts the records with an active seeding peer (the derivation's
 * `seeding` flag), whatever their status.
 */
export const SEEDING_COUNT_HELP =
  '当前正在做种的记录数：做种中、做种中（未认领）、无工资（在做种但不计工资）的记录，以及正在做种的发布者记录'
