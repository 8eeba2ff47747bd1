import fs from 'node:fs'
import os from 'node:os'

/**
 * The bench's PostgreSQL gets the memory settings docs/deploying.md gives a firm's
 * database server: shared buffers that hold the seeded data set (the claims table and its indexes are
 * about 700 MB at a million claims; the default is 128 MB), and huge pages for them. Without huge
 * pages every new server process faults in each 4 KB page of the shared buffers it touches, which on
 * this kind of VM made the first surname search of each connection several times slower than the
 * next (BENCHMARKS.md).
 */
export const BENCH_POSTGRES_SETTINGS = { shared_buffers: '1GB', huge_pages: 'try' }
const SHARED_BUFFERS_BYTES = 1024 ** 3
// the rest of PostgreSQL's shared memory (WAL buffers, locks, …) is well under this share of 1 GB
const SHARED_MEMORY_MARGIN = 1.15

const NR_HUGEPAGES = '/proc/sys/vm/nr_hugepages'

export interface HugePageReservation {
  /** What the bench did, for its log. */
  summary: string
  /** Gives back the pages the bench reserved (the system's setting as it was). */
  release(): void
}

/**
 * Makes sure the kernel has enough free huge pages for the bench's shared buffers. Only root may
 * reserve them; anyone else gets PostgreSQL without huge pages (huge_pages = try), and the log says so.
 * The reservation is given back when the bench stops, even on an error.
 */
export function reserveHugePages(): HugePageReservation {
  const meminfo = readMeminfo()
  const pageBytes = (meminfo.Hugepagesize ?? 0) * 1024
  if (process.platform !== 'linux' || pageBytes === 0) {
    return { summary: 'huge pages: not available on this system', release: () => undefined }
  }
  const needed = Math.ceil((SHARED_BUFFERS_BYTES * SHARED_MEMORY_MARGIN) / pageBytes)
  const free = meminfo.HugePages_Free ?? 0
  if (free >= needed) {
    return { summary: `huge pages: ${free} free, ${needed} needed`, release: () => undefined }
  }
  if (os.userInfo().uid !== 0) {
    return {
      summary: `huge pages: ${free} free, ${needed} needed; only root can reserve them (sysctl vm.nr_hugepages)`,
      release: () => undefined,
    }
  }
  const before = Number(fs.readFileSync(NR_HUGEPAGES, 'utf8'))
  fs.writeFileSync(NR_HUGEPAGES, String(before + needed - free))
  const release = () => fs.writeFileSync(NR_HUGEPAGES, String(before))
  process.once('exit', release)
  // the kernel grants what it can find; huge_pages = try copes with fewer
  const granted = readMeminfo().HugePages_Free ?? 0
  return {
    summary: `huge pages: reserved ${granted - free} of ${needed} needed (vm.nr_hugepages ${before} until the bench ends)`,
    release: () => {
      process.removeListener('exit', release)
      release()
    },
  }
}

function readMeminfo(): Record<string, number> {
  const figures: Record<string, number> = {}
  try {
    for (const line of fs.readFileSync('/proc/meminfo', 'utf8').split('\n')) {
      const match = /^(\w+):\s+(\d+)/.exec(line)
      if (match) figures[match[1]!] = Number(match[2])
    }
  } catch {
    // not Linux: no figures
  }
  return figures
}
