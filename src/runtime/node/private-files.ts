/**
 * The database, its write-ahead log and its backups hold the session secret, TOTP secrets and
 * webhook signing secrets: reading one is enough to forge a session. So Paylinks creates them
 * 0600 and their directories 0700 whatever the umask (the mode is set explicitly, not asked of
 * `open`, which the umask narrows but never widens), and tightens what it finds looser when the
 * file or directory is its own. SQLite creates `-wal`, `-shm` and `-journal` with the mode of the
 * database file itself, so a database created 0600 keeps its logs 0600 too.
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  fchmodSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  writeSync,
} from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'

/** Read and write for the owner alone. */
export const PRIVATE_FILE = 0o600
/** Read, write and enter for the owner alone. */
export const PRIVATE_DIR = 0o700
/** The bits that let anyone but the owner in. */
const OTHERS = 0o077

/** A file or directory open to others, and the command that closes it. */
export interface OpenToOthers {
  path: string
  /** Permission bits, e.g. 0o644. */
  mode: number
  fix: string
}

/** `0644`: a mode as people write it. */
export const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`

/** Says which file is open to others and how to close it. */
export const describeOpen = (open: OpenToOthers) =>
  `${open.path} is open to others (mode ${octal(open.mode)}): ${open.fix}`

const ours = (uid: number) => typeof process.getuid !== 'function' || uid === process.getuid()

/**
 * Creates an empty file at `path`, 0600, unless something is there already; says whether it did.
 * SQLite opens an empty file as an empty database, so the database and its logs begin private.
 */
export function createPrivateFile(path: string): boolean {
  let fd: number
  try {
    fd = openSync(path, 'wx', PRIVATE_FILE)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
  try {
    fchmodSync(fd, PRIVATE_FILE)
  } finally {
    closeSync(fd)
  }
  return true
}

/** Writes `text` to `path`, created or replaced, readable by its owner alone (exports). */
export function writePrivateFile(path: string, text: string): void {
  const fd = openSync(path, 'w', PRIVATE_FILE)
  try {
    // Before any byte is written: an existing file keeps its own mode through `open`.
    fchmodSync(fd, PRIVATE_FILE)
    writeSync(fd, text)
  } finally {
    closeSync(fd)
  }
}

/** Names unique to this process: the partial copies written beside a target, then renamed. */
let partials = 0
export const PARTIAL_NAME = /^\.\d+-\d+-\d+\.partial$/
export const partialPathBeside = (target: string) =>
  join(dirname(target), `.${Date.now()}-${process.pid}-${partials++}.partial`)

/**
 * Tightens the existing files in `paths` that are open to others to 0600 when they are ours;
 * returns the ones that are not ours to change.
 */
export function tightenFiles(paths: string[]): OpenToOthers[] {
  const left: OpenToOthers[] = []
  for (const path of paths) {
    const stat = statIfAny(path)
    if (!stat || (stat.mode & OTHERS) === 0) continue
    if (ours(stat.uid)) chmodSync(path, PRIVATE_FILE)
    else left.push({ path, mode: stat.mode, fix: `chmod 600 ${path}` })
  }
  return left
}

/**
 * Makes sure the directory `dir` exists and is closed to others. What Paylinks creates (missing
 * parents included) is 0700. An existing directory open to others is tightened when it is ours
 * and holds nothing but what `belongs` accepts (the database's own files, or backups): a
 * directory shared with anything else (a home directory, a checkout) is not Paylinks' to
 * change, and is returned so that the caller warns.
 */
export function privateDirectory(
  dir: string,
  belongs: (name: string) => boolean,
): OpenToOthers | undefined {
  if (!existsSync(dir)) {
    // `mode` keeps each new directory closed from its first moment; the chmod makes it exactly
    // 0700 whatever the umask took away.
    const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR })
    // From the directory up to the first one created, and not a step further.
    if (first !== undefined)
      for (let at = resolve(dir); ; at = dirname(at)) {
        chmodSync(at, PRIVATE_DIR)
        if (at === resolve(first) || dirname(at) === at) break
      }
    return undefined
  }
  const stat = statSync(dir)
  if ((stat.mode & OTHERS) === 0) return undefined
  if (ours(stat.uid) && readdirSync(dir).every(belongs)) {
    chmodSync(dir, PRIVATE_DIR)
    return undefined
  }
  return { path: dir, mode: stat.mode, fix: `chmod 700 ${dir}` }
}

/** The names the database at `path` has beside it: itself, its logs, its server mark, its copies. */
export function databaseFileNames(path: string): (name: string) => boolean {
  const base = basename(path)
  return (name) =>
    name === base ||
    PARTIAL_NAME.test(name) ||
    (name.startsWith(base) &&
      /^(-wal|-shm|-journal|\.server|\.before-restore-\w+)$/.test(name.slice(base.length)))
}

/** The files and directories among `paths` that exist and let others in (`paylinks doctor`). */
export function openToOthers(paths: string[]): OpenToOthers[] {
  const found: OpenToOthers[] = []
  for (const path of paths) {
    const stat = statIfAny(path)
    if (!stat || (stat.mode & OTHERS) === 0) continue
    const dir = stat.isDirectory()
    found.push({ path, mode: stat.mode, fix: `chmod ${dir ? 700 : 600} ${path}` })
  }
  return found
}

function statIfAny(path: string) {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}
