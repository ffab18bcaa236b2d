package chip

import (
	"testing"
	"time"

	"github.com/prchip/prchip/chip/classify"
	"github.com/prchip/prchip/chip/state"
)

// TestParseHTTP reads gh api -i's output as gh 2.23 and 2.83 print it (a
// 304 has a status line and no body) and refuses what is not a status
// line or an ETag one could send back.
func TestParseHTTP(t *testing.T) {
	for _, c := range []struct {
		name, out, etag string
		code            int
	}{
		{"200", "HTTP/1.1 200 OK\r\nEtag: \"abc\"\r\nContent-Type: application/json\r\n\r\n{\"number\":1}", `"abc"`, 200},
		{"304", "HTTP/1.1 304 Not Modified\r\nEtag: \"abc\"\r\n\r\n", `"abc"`, 304},
		{"weak ETag, lower-case header", "HTTP/2.0 200 OK\netag: W/\"x\"\n\n[]", `W/"x"`, 200},
		{"no status line", "{\"message\":\"Not Found\"}", "", 0},
		{"no status line, an ETag line", "gh: not found\nEtag: \"abc\"\n\n", "", 0},
		{"ETag with a control character", "HTTP/1.1 200 OK\r\nEtag: \"a\x1bb\"\r\n\r\n{}", "", 200},
		{"empty", "", "", 0},
	} {
		code, etag, _, _ := parseHTTP([]byte(c.out))
		if code != c.code || etag != c.etag {
			t.Errorf("%s: code %d etag %q, want %d %q", c.name, code, etag, c.code, c.etag)
		}
	}
	reset := time.Date(2026, 11, 30, 12, 30, 0, 0, time.UTC)
	out := []byte("HTTP/1.1 403 Forbidden\r\nX-Ratelimit-Remaining: 0\r\nX-Ratelimit-Reset: 1796041800\r\n\r\n{}")
	_, _, header, _ := parseHTTP(out)
	if got := rateLimitHeader(header, t0); !got.Equal(reset) {
		t.Errorf("rate limit reset %v, want %v", got, reset)
	}
	_, _, header, _ = parseHTTP([]byte("HTTP/1.1 403 Forbidden\r\nX-Ratelimit-Remaining: 12\r\nX-Ratelimit-Reset: 1796041800\r\n\r\n"))
	if got := rateLimitHeader(header, t0); !got.IsZero() {
		t.Errorf("a budget not used up gave a reset: %v", got)
	}
}

// TestChangedBody: the first answer after a full run (no ETag yet) is
// compared with what that run saw, so a change in between is not learned
// as the baseline and missed.
func TestChangedBody(t *testing.T) {
	open := &state.ChipState{PR: &classify.PR{Number: 1, State: "open", HeadOid: "aaa", Checks: "pending"}}
	none := &state.ChipState{}
	for _, c := range []struct {
		name, path, body string
		st               *state.ChipState
		want             bool
	}{
		{"same PR", "repos/o/r/pulls/1", `{"state":"open","draft":false,"head":{"sha":"aaa"}}`, open, false},
		{"merged since", "repos/o/r/pulls/1", `{"state":"closed","merged_at":"2026-11-30T12:00:00Z","head":{"sha":"aaa"}}`, open, true},
		{"pushed since", "repos/o/r/pulls/1", `{"state":"open","head":{"sha":"bbb"}}`, open, true},
		{"made draft since", "repos/o/r/pulls/1", `{"state":"open","draft":true,"head":{"sha":"aaa"}}`, open, true},
		{"unreadable", "repos/o/r/pulls/1", `<html>`, open, true},
		{"still no PR", "repos/o/r/pulls?head=o%3Ab&state=all", `[{"number":3,"state":"closed"}]`, none, false},
		{"a PR opened since", "repos/o/r/pulls?head=o%3Ab&state=all", `[{"number":4,"state":"open"}]`, none, true},
		{"checks still running", "repos/o/r/commits/aaa/check-runs", `{"check_runs":[{"status":"completed"},{"status":"in_progress"}]}`, open, false},
		{"checks finished since", "repos/o/r/commits/aaa/check-runs", `{"check_runs":[{"status":"completed"}]}`, open, true},
		{"no statuses", "repos/o/r/commits/aaa/status", `{"state":"pending","total_count":0}`, open, false},
		{"statuses finished since", "repos/o/r/commits/aaa/status", `{"state":"success","total_count":2}`, open, true},
		{"the base's ref: learned", "repos/o/r/git/ref/heads/main", `{"object":{"sha":"x"}}`, open, false},
	} {
		if got := changedBody(c.path, []byte(c.body), c.st); got != c.want {
			t.Errorf("%s: changed %v, want %v", c.name, got, c.want)
		}
	}
}
