package chip

// StatusHook is the binary the calling shell's hook runs (status `hook`):
// the hooks call prchip by the path `prchip init` recorded and fall back
// to prchip on PATH when that path is gone, so a chip that vanished after
// an upgrade is explained here.
type StatusHook struct {
	// Exe is the path the hook recorded (its PRCHIP_HOOK_EXE).
	Exe string `json:"exe"`
	// Missing says why Exe cannot run ("gone", "not an executable file"),
	// "" when it can.
	Missing string `json:"missing,omitempty"`
	// Runs is what the hook runs: Exe, the prchip on PATH it falls back
	// to, or "" when there is none and the chip is off in that shell.
	Runs string `json:"runs"`
}

// line is the human status row.
func (h *StatusHook) line() string {
	switch {
	case h.Missing == "":
		return "runs " + h.Exe
	case h.Runs != "":
		return "runs " + h.Exe + ", which is " + h.Missing + "; it falls back to prchip on PATH (" + h.Runs + ")"
	}
	return "runs " + h.Exe + ", which is " + h.Missing + ", and there is no prchip on PATH: the chip is off in this shell " +
		"(put prchip on PATH, or load the hook again from where prchip is now)"
}
