package classify

import (
	"bufio"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prchip/prchip/chip/proc"
	"github.com/prchip/prchip/chip/pull"
)

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// TestClassifySharedSamples runs every row of the sample of real gh output
// (testdata/, a copy of the one beside the product spec). The file's
// "empty" label covers both validated-without-PR and
// not-applicable; what matters is that neither is an auth failure nor
// retryable, and that "no pull requests found" validates.
func TestClassifySharedSamples(t *testing.T) {
	f, err := os.Open("../../testdata/gh-pr-view-stderr.tsv")
	if err != nil {
		t.Fatalf("gh output sample missing: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	rows := 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 4 {
			t.Fatalf("bad row %q", sc.Text())
		}
		rows++
		situation, label := cols[0], cols[3]
		code, _ := strconv.Atoi(cols[1])
		stderr := strings.ReplaceAll(cols[2], `\n`, "\n")
		t.Run(situation, func(t *testing.T) {
			o := ClassifyPR(proc.Result{ExitCode: code, Stderr: []byte(stderr)}, t0)
			switch label {
			case "auth":
				if o.Class != AuthFailure {
					t.Errorf("class %s/%s, want auth_failure", o.Class, o.Category)
				}
			case "retryable":
				if o.Class != Retryable {
					t.Errorf("class %s/%s, want retryable", o.Class, o.Category)
				}
			case "empty":
				want := NotApplicable
				if strings.Contains(stderr, "no pull requests found") {
					want = Validated
				}
				if o.Class != want {
					t.Errorf("class %s/%s, want %s", o.Class, o.Category, want)
				}
			default:
				t.Fatalf("unknown label %q", label)
			}
			if len(o.Detail) > 512 || strings.ContainsAny(o.Detail, "\n\x1b") {
				t.Errorf("unsafe detail %q", o.Detail)
			}
			if len(o.Recovery) > 3 {
				t.Errorf("%d recovery actions", len(o.Recovery))
			}
		})
	}
	if rows < 30 {
		t.Fatalf("only %d rows read", rows)
	}
}

// TestClassifyGeneralises covers other hosts, versions and wordings than
// the shared sample, and the categories.
func TestClassifyGeneralises(t *testing.T) {
	cases := []struct {
		name     string
		r        proc.Result
		class    Class
		category string
	}{
		{"PR JSON", proc.Result{ExitCode: 0, Stdout: []byte(`{"number":12,"title":"x","state":"OPEN","isDraft":true,"url":"https://github.com/o/r/pull/12"}`)}, Validated, CatPR},
		{"coloured PR JSON", proc.Result{ExitCode: 0, Stdout: []byte("\x1b[1;38m{\x1b[m\"number\":3}")}, Validated, CatPR},
		{"exit 0 garbage", proc.Result{ExitCode: 0, Stdout: []byte("<html>")}, Retryable, CatBadResponse},
		{"exit 0 empty", proc.Result{ExitCode: 0}, Retryable, CatBadResponse},
		{"stdout past its limit", proc.Result{ExitCode: -1, Overflowed: true, Stdout: []byte("yyyy")}, Retryable, CatBadResponse},
		// What git says through gh is the repository's, never gh's word on auth.
		{"git config value quoted", proc.Result{ExitCode: 1, Stderr: []byte("failed to run git: fatal: bad boolean config value 'bad credentials' for 'remote.origin.mirror'\n")}, Retryable, CatUnknown},
		{"git path quoted", proc.Result{ExitCode: 1, Stderr: []byte("failed to run git: fatal: detected dubious ownership in repository at '/src/HTTP 401 requires you to be authenticated'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory '/src/HTTP 401 requires you to be authenticated'\n")}, NotApplicable, CatUnsafe},
		{"git quoting a rate limit", proc.Result{ExitCode: 1, Stderr: []byte("failed to run git: fatal: bad config value 'API rate limit exceeded, resets at 2099-01-01T00:00:00Z'\n")}, Retryable, CatUnknown},
		{"401 during account migration", proc.Result{ExitCode: 1, Stderr: []byte("non-200 OK status code: 401 Unauthorized body: \"{\\\"message\\\":\\\"Bad credentials\\\"}\"\n")}, AuthFailure, CatBadCredentials},
		{"401 Unauthorized alone", proc.Result{ExitCode: 1, Stderr: []byte("non-200 OK status code: 401 Unauthorized\n")}, AuthFailure, CatAuthRequired},
		{"remotes and GH_HOST", proc.Result{ExitCode: 1, Stderr: []byte("none of the git remotes configured for this repository correspond to the GH_HOST environment variable. Try adding a matching remote or unsetting the variable.\n")}, NotApplicable, CatNoGitHubRemote},
		{"remotes and known hosts", proc.Result{ExitCode: 1, Stderr: []byte("none of the git remotes configured for this repository point to a known GitHub host. To tell gh about a new GitHub host, please use `gh auth login`\n")}, NotApplicable, CatNoGitHubRemote},
		{"no PR other host", proc.Result{ExitCode: 1, Stderr: []byte(`no pull requests found for branch "x/y"` + "\n")}, Validated, CatNoPR},
		{"network enterprise host", proc.Result{ExitCode: 1, Stderr: []byte(`Post "https://ghe.corp.example/api/graphql": dial tcp: lookup ghe.corp.example: no such host`)}, Retryable, CatOffline},
		{"network api.github.com", proc.Result{ExitCode: 1, Stderr: []byte(`Post "https://api.github.com/graphql": dial tcp: lookup api.github.com: no such host`)}, Retryable, CatOffline},
		{"tls", proc.Result{ExitCode: 1, Stderr: []byte(`Post "https://api.github.com/graphql": tls: failed to verify certificate: x509: certificate signed by unknown authority`)}, Retryable, CatOffline},
		{"i/o timeout", proc.Result{ExitCode: 1, Stderr: []byte(`Post "https://api.github.com/graphql": dial tcp 140.82.112.6:443: i/o timeout`)}, Retryable, CatOffline},
		{"connection reset", proc.Result{ExitCode: 1, Stderr: []byte(`Post "https://api.github.com/graphql": read tcp 10.0.0.2:51234->140.82.112.6:443: read: connection reset by peer`)}, Retryable, CatNetwork},
		{"EOF", proc.Result{ExitCode: 1, Stderr: []byte(`Post "https://api.github.com/graphql": EOF`)}, Retryable, CatNetwork},
		{"refused", proc.Result{ExitCode: 1, Stderr: []byte(`Post "https://api.github.com/graphql": dial tcp 140.82.112.6:443: connect: connection refused`)}, Retryable, CatOffline},
		{"unreachable", proc.Result{ExitCode: 1, Stderr: []byte(`Post "https://api.github.com/graphql": dial tcp 140.82.112.6:443: connect: network is unreachable`)}, Retryable, CatOffline},
		{"401 enterprise", proc.Result{ExitCode: 1, Stderr: []byte("HTTP 401: Bad credentials (https://ghe.corp.example/api/graphql)\n")}, AuthFailure, CatBadCredentials},
		{"401 other wording", proc.Result{ExitCode: 1, Stderr: []byte("HTTP 401: Unauthorized (https://api.github.com/graphql)")}, AuthFailure, CatAuthRequired},
		{"exit 4 unknown text", proc.Result{ExitCode: 4, Stderr: []byte("something new about logging in")}, AuthFailure, CatAuthRequired},
		{"old gh not logged in", proc.Result{ExitCode: 1, Stderr: []byte("You are not logged into any GitHub hosts. Run gh auth login to authenticate.")}, AuthFailure, CatAuthRequired},
		{"gh auth login in a network hint is not auth", proc.Result{ExitCode: 1, Stderr: []byte("error connecting to api.github.com\nrun gh auth login if this persists")}, Retryable, CatOffline},
		{"403 forbidden", proc.Result{ExitCode: 1, Stderr: []byte("HTTP 403: Must have admin rights to Repository. (https://api.github.com/graphql)")}, Retryable, CatAccessDenied},
		{"SAML", proc.Result{ExitCode: 1, Stderr: []byte("GraphQL: Resource protected by organization SAML enforcement.")}, Retryable, CatAccessDenied},
		{"secondary rate limit 403", proc.Result{ExitCode: 1, Stderr: []byte("HTTP 403: You have exceeded a secondary rate limit.")}, Retryable, CatRateLimited},
		{"429 bare", proc.Result{ExitCode: 1, Stderr: []byte("HTTP 429: 429 Too Many Requests (https://api.github.com/graphql)")}, Retryable, CatRateLimited},
		{"500", proc.Result{ExitCode: 1, Stderr: []byte("HTTP 500: 500 Internal Server Error (https://api.github.com/graphql)")}, Retryable, CatUnavailable},
		{"503 enterprise", proc.Result{ExitCode: 1, Stderr: []byte("HTTP 503 (https://ghe.corp.example/api/graphql)")}, Retryable, CatUnavailable},
		{"timeout", proc.Result{ExitCode: -1, TimedOut: true}, Retryable, CatTimeout},
		{"signal", proc.Result{ExitCode: -1, Signaled: true}, Retryable, CatKilled},
		{"empty stderr", proc.Result{ExitCode: 1}, Retryable, CatUnknown},
		// "HTTP NNN" is three digits and no more; a later one counts too.
		{"HTTP 4013 is no 401", proc.Result{ExitCode: 1, Stderr: []byte("HTTP 4013: odd\n")}, Retryable, CatUnknown},
		{"second HTTP status", proc.Result{ExitCode: 1, Stderr: []byte("retrying after HTTP 2000\nHTTP 403: Forbidden")}, Retryable, CatAccessDenied},
		{"gh in automation", proc.Result{ExitCode: 1, Stderr: []byte("To use GitHub CLI in automation, set the GH_TOKEN environment variable.")}, AuthFailure, CatAuthRequired},
		{"unknown stderr", proc.Result{ExitCode: 2, Stderr: []byte("flux capacitor overloaded")}, Retryable, CatUnknown},
		{"start: no such file", proc.Result{ExitCode: -1, StartErr: os.ErrNotExist}, MissingGh, CatGhMissing},
		{"start: permission", proc.Result{ExitCode: -1, StartErr: os.ErrPermission}, MissingGh, CatGhMissing},
		{"detached HEAD, gh's words", proc.Result{ExitCode: 1, Stderr: []byte("could not determine current branch: failed to run git: fatal: ref HEAD is not a symbolic ref\n")}, NotApplicable, CatDetachedHead},
		{"detached HEAD, git's words", proc.Result{ExitCode: 1, Stderr: []byte("failed to run git: not on any branch\n")}, NotApplicable, CatDetachedHead},
		{"not a git repo other wording", proc.Result{ExitCode: 1, Stderr: []byte("fatal: not a git repository: /x/.git")}, NotApplicable, CatNotRepository},
		{"none of the remotes", proc.Result{ExitCode: 1, Stderr: []byte("none of the git remotes configured for this repository point to a known GitHub host. To tell gh about a new GitHub host, please use `gh auth login`")}, NotApplicable, CatNoGitHubRemote},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := ClassifyPR(c.r, t0)
			if o.Class != c.class || o.Category != c.category {
				t.Fatalf("got %s/%s, want %s/%s (detail %q)", o.Class, o.Category, c.class, c.category, o.Detail)
			}
		})
	}
}

func TestClassifyPRPayloadSanitised(t *testing.T) {
	out := `{"number":1,"title":"evil \u001b]52;c;ZXZpbA==\u0007title ghp_0123456789abcdefghijABCDEFGHIJ012345 \u202e","state":"MERGED","isDraft":false,"url":"https://x:ghp_0123456789abcdefghij@github.com/o/r/pull/1"}`
	o := ClassifyPR(proc.Result{ExitCode: 0, Stdout: []byte(out)}, t0)
	if o.PR == nil {
		t.Fatal("no PR")
	}
	if strings.ContainsAny(o.PR.Title, "\x1b\x07\u202e") || strings.Contains(o.PR.Title, "ghp_") {
		t.Errorf("title %q", o.PR.Title)
	}
	if strings.Contains(o.PR.URL, "ghp_") {
		t.Errorf("url %q", o.PR.URL)
	}
	if o.PR.State != "merged" {
		t.Errorf("state %q", o.PR.State)
	}
}

func TestClassifyDetailBounded(t *testing.T) {
	big := strings.Repeat("é", 2000) + "\x1b[31m ghs_abcdefghijklmnopqrstuvwxyz0123456789"
	o := ClassifyPR(proc.Result{ExitCode: 1, Stderr: []byte("ghs_abcdefghijklmnopqrstuvwxyz0123456789 " + big)}, t0)
	if len(o.Detail) > 512 {
		t.Errorf("detail is %d bytes", len(o.Detail))
	}
	if strings.Contains(o.Detail, "ghs_") {
		t.Errorf("token in detail %q", o.Detail[:80])
	}
	if !strings.HasPrefix(o.Detail, "[REDACTED]") {
		t.Errorf("detail %q", o.Detail[:40])
	}
}

func TestRateLimitResetHonoured(t *testing.T) {
	reset := t0.Add(20 * time.Minute)
	o := ClassifyPR(proc.Result{ExitCode: 1, Stderr: []byte("GraphQL: API rate limit exceeded; resets at " + reset.Format(time.RFC3339))}, t0)
	if o.Category != CatRateLimited || !o.RetryAt.Equal(reset) {
		t.Fatalf("category %s retry at %v", o.Category, o.RetryAt)
	}
	if !strings.HasPrefix(o.Recovery[0], "wait until ") {
		t.Errorf("recovery %v", o.Recovery)
	}
	// The reset's end: a space, a line's end, ')' or ','; a sentence's full
	// stop is not part of it. A signed number is no time.
	for _, tail := range []string{".", ";", ")", ", retry later", "\nmore"} {
		for _, v := range []string{reset.Format(time.RFC3339), strconv.FormatInt(reset.Unix(), 10)} {
			o := ClassifyPR(proc.Result{ExitCode: 1, Stderr: []byte("API rate limit exceeded (resets at " + v + tail)}, t0)
			if !o.RetryAt.Equal(reset) {
				t.Errorf("reset %q: retry at %v", v+tail, o.RetryAt)
			}
		}
	}
	if o := ClassifyPR(proc.Result{ExitCode: 1, Stderr: []byte("rate limit; reset: +" + strconv.FormatInt(reset.Unix(), 10))}, t0); !o.RetryAt.IsZero() {
		t.Errorf("a signed reset is read: %v", o.RetryAt)
	}
	far := ClassifyPR(proc.Result{ExitCode: 1, Stderr: []byte("rate limit exceeded, x-ratelimit-reset: " + strconv.FormatInt(t0.Add(5*time.Hour).Unix(), 10))}, t0)
	if !far.RetryAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("a 5 h reset is capped at 1 h: %v", far.RetryAt)
	}
}

// gh's output: fields absent were not asked for (nil), null or an empty
// list is asked and none; anything but one JSON object is refused.
func TestParsePRDocuments(t *testing.T) {
	for doc, want := range map[string]*PR{
		`{"number":42}`:                                      {Number: 42},
		`{"number":42,"statusCheckRollup":null}`:             {Number: 42, Counts: &pull.CheckCounts{}},
		`{"number":42,"statusCheckRollup":[]}`:               {Number: 42, Counts: &pull.CheckCounts{}},
		`{"NUMBER":7,"IsDraft":true,"extra":{"a":[1,2,{}]}}`: {Number: 7, Draft: true},
		`{"number":42,"statusCheckRollup":[{"__typename":"CheckRun","name":"t","status":"COMPLETED","conclusion":"FAILURE"}]}`: {Number: 42,
			Checks: "failing", Counts: &pull.CheckCounts{Failing: 1}, FailingCheck: "t"},
		`{"number":"42"}`:                      nil,
		`{"number":4.2}`:                       nil,
		`{"number":42,"statusCheckRollup":{}}`: nil,
		`{"number":42} x`:                      nil,
		`[]`:                                   nil,
		``:                                     nil,
	} {
		got, err := ParsePR([]byte(doc))
		if want == nil {
			if err == nil {
				t.Errorf("%s: read as %+v, want refused", doc, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, %v; want %+v", doc, got, err, want)
		}
	}
}

// The fields beyond the basics, as gh prints them (Debian's 2.23 and
// current releases print statusCheckRollup alike: the last commit's
// contexts, with startedAt on both kinds).
func TestParsePRFields(t *testing.T) {
	const oid = "0123456789abcdef0123456789abcdef01234567"
	run := func(name, workflow, status, concl, started string) string {
		return `{"__typename":"CheckRun","name":"` + name + `","workflowName":"` + workflow + `","status":"` + status +
			`","conclusion":"` + concl + `","startedAt":"` + started + `"}`
	}
	ctx := func(name, state, started string) string {
		return `{"__typename":"StatusContext","context":"` + name + `","state":"` + state + `","startedAt":"` + started + `"}`
	}
	rollup := func(cs ...string) string { return `"statusCheckRollup":[` + strings.Join(cs, ",") + `]` }
	counts := func(p, f, w int) *pull.CheckCounts { return &pull.CheckCounts{Passing: p, Failing: f, Pending: w} }
	on, off := true, false
	cases := []struct {
		name, doc string
		want      PR
	}{
		{"clean", `"mergeStateStatus":"CLEAN"`, PR{MergeState: "clean"}},
		{"dirty is conflicts", `"mergeStateStatus":"DIRTY"`, PR{MergeState: "conflicts"}},
		{"behind", `"mergeStateStatus":"BEHIND"`, PR{MergeState: "behind"}},
		{"blocked", `"mergeStateStatus":"BLOCKED"`, PR{MergeState: "blocked"}},
		{"unstable", `"mergeStateStatus":"UNSTABLE"`, PR{MergeState: "unstable"}},
		{"draft", `"mergeStateStatus":"DRAFT"`, PR{MergeState: "draft"}},
		{"has hooks", `"mergeStateStatus":"HAS_HOOKS"`, PR{MergeState: "has_hooks"}},
		{"unknown is kept, to check again soon", `"mergeStateStatus":"UNKNOWN"`, PR{MergeState: "unknown"}},
		{"a future state is not shown", `"mergeStateStatus":"SOMETHING_NEW"`, PR{}},
		{"auto-merge on", `"autoMergeRequest":{"mergeMethod":"SQUASH","enabledBy":{"login":"o"}}`, PR{AutoMerge: &on}},
		{"auto-merge off", `"autoMergeRequest":null`, PR{AutoMerge: &off}},
		{"head oid", `"headRefOid":"` + oid + `"`, PR{HeadOid: oid}},
		{"head oid upper case", `"headRefOid":"` + strings.ToUpper(oid) + `"`, PR{HeadOid: oid}},
		{"head oid sha256", `"headRefOid":"` + oid + oid[:24] + `"`, PR{HeadOid: oid + oid[:24]}},
		{"head oid not hex", `"headRefOid":"../../etc/passwd0123456789abcdef0123456789"`, PR{}},
		{"node id", `"id":"PR_kwDOAbc-_="`, PR{ID: "PR_kwDOAbc-_="}},
		{"node id with other characters", `"id":"PR_kw DO$(id)"`, PR{}},
		{"node id too long", `"id":"` + strings.Repeat("A", 129) + `"`, PR{}},
		{"head oid short", `"headRefOid":"0123456"`, PR{}},
		{"buckets", rollup(run("a", "ci", "COMPLETED", "SUCCESS", ""), run("b", "ci", "COMPLETED", "SKIPPED", ""),
			run("c", "ci", "IN_PROGRESS", "", ""), ctx("d", "PENDING", ""), ctx("e", "SUCCESS", ""),
			run("f", "ci", "COMPLETED", "TIMED_OUT", ""), ctx("g", "ERROR", "")),
			PR{Checks: "failing", Counts: counts(3, 2, 2), FailingCheck: "f"}},
		{"pending beats passing", rollup(run("a", "ci", "COMPLETED", "SUCCESS", ""), ctx("b", "EXPECTED", "")),
			PR{Checks: "pending", Counts: counts(1, 0, 1)}},
		{"a re-run that passed replaces the failed run", rollup(
			run("test", "ci", "COMPLETED", "FAILURE", "2026-11-30T10:00:00Z"),
			run("test", "ci", "COMPLETED", "SUCCESS", "2026-11-30T11:00:00Z")),
			PR{Checks: "passing", Counts: counts(1, 0, 0)}},
		{"a re-run in progress replaces the failed run", rollup(
			run("test", "ci", "IN_PROGRESS", "", "2026-11-30T11:00:00Z"),
			run("test", "ci", "COMPLETED", "FAILURE", "2026-11-30T10:00:00Z")),
			PR{Checks: "pending", Counts: counts(0, 0, 1)}},
		{"the same name in two workflows is two checks", rollup(
			run("test", "ci", "COMPLETED", "SUCCESS", "2026-11-30T11:00:00Z"),
			run("test", "nightly", "COMPLETED", "FAILURE", "2026-11-30T10:00:00Z")),
			PR{Checks: "failing", Counts: counts(1, 1, 0), FailingCheck: "test"}},
		{"a status posted again counts once", rollup(
			ctx("deploy", "FAILURE", "2026-11-30T10:00:00Z"), ctx("deploy", "SUCCESS", "2026-11-30T10:05:00Z")),
			PR{Checks: "passing", Counts: counts(1, 0, 0)}},
		{"the first failing check is named", rollup(run("lint", "ci", "COMPLETED", "SUCCESS", ""),
			ctx("ci/circleci: build", "FAILURE", ""), run("unit", "ci", "COMPLETED", "FAILURE", "")),
			PR{Checks: "failing", Counts: counts(1, 2, 0), FailingCheck: "ci/circleci: build"}},
		{"an odd time is no reason to refuse", rollup(run("a", "ci", "COMPLETED", "SUCCESS", "yesterday")),
			PR{Checks: "passing", Counts: counts(1, 0, 0)}},
		{"a failing check's name is cleaned", rollup(run("evil\u001b]52;c;eA==\u0007 ghp_0123456789abcdefghijABCDEFGHIJ012345", "ci", "COMPLETED", "FAILURE", "")),
			PR{Checks: "failing", Counts: counts(0, 1, 0), FailingCheck: "evil [REDACTED]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParsePR([]byte(`{"number":1,` + c.doc + `}`))
			c.want.Number = 1
			if err != nil || !reflect.DeepEqual(*got, c.want) {
				t.Errorf("%s:\n got %+v (%v)\nwant %+v", c.doc, got, err, c.want)
			}
		})
	}
}

// A lookup that found no PR says why, in words made safe for status.
func TestNoPROutcome(t *testing.T) {
	o := NoPROutcome(t0, "the PR for \x1b[31mfeature\x1b[m was merged, at ghp_0123456789abcdefghijABCDEFGHIJ012345")
	if o.Class != Validated || o.Category != CatNoPR || o.Detail != "the PR for feature was merged, at [REDACTED]" {
		t.Errorf("%s/%s %q", o.Class, o.Category, o.Detail)
	}
	if o := NoPROutcome(t0, ""); o.Detail != "" || o.Category != CatNoPR {
		t.Errorf("no why: %s %q", o.Category, o.Detail)
	}
}

func TestRateLimitResetFrom(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) string { return strconv.FormatInt(now.Add(d).Unix(), 10) }
	cases := []struct {
		name, json string
		want       time.Duration // 0: no reset
	}{
		{"used up", `{"resources":{"graphql":{"limit":5000,"remaining":0,"reset":` + at(20*time.Minute) + `}}}`, 20 * time.Minute},
		{"budget left (a secondary limit)", `{"resources":{"graphql":{"remaining":12,"reset":` + at(20*time.Minute) + `}}}`, 0},
		{"reset passed", `{"resources":{"graphql":{"remaining":0,"reset":` + at(-time.Minute) + `}}}`, 0},
		{"beyond an hour", `{"resources":{"graphql":{"remaining":0,"reset":` + at(3*time.Hour) + `}}}`, 0},
		{"no graphql", `{"resources":{"core":{"remaining":0,"reset":` + at(time.Minute) + `}}}`, 0},
		{"no remaining", `{"resources":{"graphql":{"reset":` + at(time.Minute) + `}}}`, 0},
		{"garbage", `<html>`, 0},
	}
	for _, c := range cases {
		got := RateLimitResetFrom([]byte(c.json), now)
		if (c.want == 0) != got.IsZero() || c.want != 0 && !got.Equal(now.Add(c.want)) {
			t.Errorf("%s: %v", c.name, got)
		}
	}
}
