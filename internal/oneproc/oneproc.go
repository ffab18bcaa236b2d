// Package oneproc runs prchip on one processor unless the user chose a count.
//
// prchip does no parallel work: every command is a short run of file reads or
// a wait on gh. A second processor only costs. On two CPUs the runtime starts
// with two, and main's goroutine usually lands on the second, whose
// allocation caches are empty: each size class main allocates in then takes a
// fresh span, a fresh page, about 20 µs each on a VM. Measured on the render
// (prchip prompt, 4 copies, 200 interleaved rounds): 218 → 202 page faults,
// about 0.3 ms of a 7 ms prompt.
//
// The switch pays only before the first allocation of any initialiser: after
// it, the second processor's caches are thrown away and refilled on the first.
// So this package imports nothing but runtime, and package main imports it;
// the Go linker runs the initialisers of packages without dependencies first.
// TestOneProcessorBeforeAnyAllocation (e2e) holds that order.
//
// A GOMAXPROCS set in the environment is kept, unless it equals the number of
// CPUs, which cannot be told from the default without reading the
// environment, and reading it allocates. A default that a container's CPU
// limit lowered below the CPU count is kept too, for the same reason; such a
// machine pays the cost above. The hooks set GOMAXPROCS=1
// themselves, which is faster still: the runtime then never starts a second
// processor.
package oneproc

import "runtime"

func init() {
	if n := runtime.GOMAXPROCS(0); n > 1 && n == runtime.NumCPU() {
		runtime.GOMAXPROCS(1)
	}
}
