package shellhooks

// The worker protocol's code: requests, answers and the budget; the
// variables a request carries are env.Names. docs/worker-protocol.md
// describes the protocol (set-up, messages, ends for zsh, bash and fish);
// the snippets get the variable list and the budget from here (Snippet).

import (
	"bufio"
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prchip/prchip/internal/env"
)

// Magic opens every request; a new incompatible protocol gets a new word.
const Magic = "prchip1"

// The fish channel's names (see the fish part of the protocol above).
const (
	FishRequest = "req"
	FishAnswer  = "ans"
	// FishEnd is the answer file's content once the worker has ended.
	FishEnd = "end"
	// FishDirPrefix starts the name of the directory the hook makes.
	FishDirPrefix = "prchip-fish."
	fishShown     = "shown="
)

// FishShown is the chip a fish request says the shell shows ("" when the
// request has no such field).
func FishShown(req []byte) string {
	f := bytes.Split(req, []byte{0})
	if len(f) > 4 && bytes.HasPrefix(f[4], []byte(fishShown)) {
		return string(f[4][len(fishShown):])
	}
	return ""
}

// Budget is how long a hook waits for the worker's answer before it renders
// with the one-shot command instead. An answer takes well under a
// millisecond; the margin is for a loaded machine.
const Budget = 50 * time.Millisecond

// Request is one prompt's question.
type Request struct {
	ID         string
	Dir        string
	Invalidate bool
	// Probe: the command line ran git only, which asks for a conditional
	// probe at once instead ("2" in the invalidate field).
	Probe bool
	// Once names the hook's pending invalidation ("1:ONCE" or "2:ONCE"):
	// the one-shot `prchip invalidate --once ONCE` the hook runs when this
	// request's answer comes too late, and a request sent again, change
	// nothing once it was made.
	Once string
	// Env holds the env.Names that are set; a name missing here is unset.
	Env map[string]string
}

// ErrBadRequest is a request that does not follow the protocol.
var ErrBadRequest = errors.New("bad worker request")

// maxField bounds one field, so a confused writer cannot grow the worker.
const maxField = 64 << 10

// ReadRequest reads one request.
func ReadRequest(r *bufio.Reader) (Request, error) {
	var fields []string
	for {
		b, err := r.ReadSlice(0)
		if err == bufio.ErrBufferFull || len(b) > maxField {
			return Request{}, ErrBadRequest
		}
		if err != nil {
			return Request{}, err
		}
		f := string(b[:len(b)-1])
		if f == "" && len(fields) >= 4 {
			break
		}
		fields = append(fields, f)
		if len(fields) > 4+2*len(env.Names)+2*env.GitConfigPairs {
			return Request{}, ErrBadRequest
		}
	}
	if fields[0] != Magic || fields[1] == "" {
		return Request{}, ErrBadRequest
	}
	inv, once, _ := strings.Cut(fields[3], ":")
	req := Request{ID: fields[1], Dir: fields[2], Invalidate: inv == "1", Probe: inv == "2", Env: map[string]string{}}
	if req.Invalidate || req.Probe {
		req.Once = once
	}
	for _, kv := range fields[4:] {
		if dump, ok := strings.CutPrefix(kv, BashEnvField); ok {
			ParseBashDeclare(dump, req.Env)
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if ok && env.IsName(k) {
			req.Env[k] = v
		}
	}
	return req, nil
}

// Encode is the request as a hook writes it (for tests and the benchmark).
func (r Request) Encode() []byte {
	var b bytes.Buffer
	inv := "0"
	if r.Invalidate {
		inv = "1"
	} else if r.Probe {
		inv = "2"
	}
	if inv != "0" && r.Once != "" {
		inv += ":" + r.Once
	}
	for _, f := range []string{Magic, r.ID, r.Dir, inv} {
		b.WriteString(f)
		b.WriteByte(0)
	}
	for _, n := range append(append([]string(nil), env.Names...), r.GitConfigPairs()...) {
		if v, ok := r.Env[n]; ok {
			b.WriteString(n + "=" + v)
			b.WriteByte(0)
		}
	}
	b.WriteByte(0)
	return b.Bytes()
}

// GitConfigPairs are the GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n the
// request carries, sorted.
func (r Request) GitConfigPairs() []string {
	var names []string
	for k := range r.Env {
		if env.IsGitConfigPair(k) {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	return names
}

// Answer is the line that answers request id with chip.
func Answer(id, chip string) []byte { return []byte(id + " " + chip + "\n") }

// Hello is the line a worker writes once it holds both FIFOs (bash:
// BashFrame("0", pid)).
func Hello(pid int) []byte { return []byte("hello " + strconv.Itoa(pid) + "\n") }

// Push is the line that tells zsh the chip changed while the prompt is shown.
func Push(chip string) []byte { return []byte("push " + chip + "\n") }
