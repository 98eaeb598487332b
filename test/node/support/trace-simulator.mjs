/**
 * `node --import ./test/node/support/trace-simulator.mjs`: appends every module of src/simulator
 * that the process loads to the file named by PAYLINKS_TRACE_FILE.
 */
import { register } from 'node:module'

register('./trace-simulator-hooks.mjs', import.meta.url)
