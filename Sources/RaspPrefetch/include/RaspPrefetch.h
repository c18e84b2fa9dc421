// RaspPrefetch: the processor's prefetch instruction, which Swift does not expose.
//
// A keyed replay (`rasp replay --key-by`) applies each event to the state of its key, one of
// maybe 100,000 scattered in memory: waiting for each key's state to arrive from memory takes
// longer than applying the event. The replay looks a few events ahead and asks for their
// keys' states early, with this hint, which never faults and changes no result.
#ifndef RASP_PREFETCH_H
#define RASP_PREFETCH_H

/// Asks the processor to bring the memory at `address` into its caches, for reading soon.
static inline void rasp_prefetch(const void *address) {
  __builtin_prefetch(address, 0, 3);
}

#endif
