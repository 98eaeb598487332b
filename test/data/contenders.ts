/** Runs contenders (fixtures/contender.ts) in parallel threads that start their attempt together. */
import { Worker } from 'node:worker_threads'
import { bundledForThreads } from '../support/thread-bundle.js'
import type { ContenderTask } from './fixtures/contender.js'

const ENTRY = new URL('./fixtures/contender.ts', import.meta.url)

/** Starts one thread per task, releases them at once when all are ready, returns their results. */
export async function runContenders(path: string, tasks: ContenderTask[]): Promise<string[]> {
  const control = new SharedArrayBuffer(4)
  const flags = new Int32Array(control)
  const ready: Promise<void>[] = []
  const results: Promise<string>[] = []
  const contender = await bundledForThreads(ENTRY, 'contender')
  for (const task of tasks) {
    const worker = new Worker(contender, { workerData: { path, control, task } })
    let onReady!: () => void
    ready.push(new Promise<void>((resolve) => (onReady = resolve)))
    results.push(
      new Promise<string>((resolve, reject) => {
        worker.on('message', (m: { ready?: true; result?: string; error?: string }) => {
          if (m.ready) onReady()
          else if (m.error) reject(new Error(m.error))
          else resolve(m.result!)
        })
        // A contender that dies before it is ready must not leave the others waiting.
        worker.on('error', (error) => {
          onReady()
          reject(error)
        })
        worker.on('exit', (code) => {
          onReady()
          reject(new Error(`contender exited with ${code}`))
        })
      }),
    )
  }
  await Promise.all(ready)
  Atomics.store(flags, 0, 1)
  Atomics.notify(flags, 0)
  return Promise.all(results)
}
