import fs from 'node:fs'
import path from 'node:path'

/**
 * The project's folder, where forms/, agreements/, firm.json and dist/client are: the nearest folder
 * above this file with a package.json. From source that is one level up; compiled (dist/server/server/)
 * it is three, so no path is counted in levels.
 */
export const PROJECT_ROOT = findProjectRoot(import.meta.dirname)

function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${start}: where is the project?`)
  }
}
