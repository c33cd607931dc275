// Runs electronegativity through its library entry and prints the findings as JSON on stdout.
// The CLI's CSV writer races its header write against its rows (two un-awaited fs.writeFile
// calls), so its file can come out truncated; the library call has no file at all.
// The library also logs to stdout, so the findings go to a file written once, synchronously.
// Usage: node scan.cjs <input dir> <electron version> <output .json> [excluded check ids, comma-separated]
'use strict'
const { writeFileSync } = require('node:fs')
const run = require('@doyensec/electronegativity')

async function main() {
  const [input, electronVersion, output, excluded = ''] = process.argv.slice(2)
  if (!input || !electronVersion || !output) throw new Error('usage: node scan.cjs <input> <electron version> <output.json> [excluded]')
  const result = await run(
    {
      input,
      electronVersionOverride: electronVersion,
      // The library names checks by class (CSPGlobalCheck → cspglobalcheck); findings use ids (CSP_GLOBAL_CHECK).
      excludeFromScan: excluded ? excluded.split(',').map((id) => id.replace(/_/g, '').toLowerCase()) : [],
      customScan: [],
      parserPlugins: [],
    },
    false,
  )
  if (result.errors.length) throw new Error(`electronegativity could not parse: ${JSON.stringify(result.errors)}`)
  const findings = result.issues.map((issue) => ({
    issue: issue.id,
    severity: issue.severity.name,
    confidence: issue.confidence.name,
    file: issue.file,
    location: `${issue.location.line}:${issue.location.column}`,
    description: issue.description,
  }))
  writeFileSync(output, JSON.stringify(findings, null, 2))
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`)
  process.exit(1)
})
