# prchip for fish: prchip init fish | source   (in ~/.config/fish/config.fish)
#
# The hook keeps the chip in $PRCHIP. Print it from your prompt, for example:
#   function fish_prompt
#       echo -n (prompt_pwd)
#       test -n "$PRCHIP"; and echo -n " $PRCHIP"
#       echo -n ' > '
#   end
# When starship draws the prompt (fish_prompt runs `starship prompt`),
# $PRCHIP is plain text and exported, for starship's env_var module
# (prchip init starship).
# fish prints variables as text, so a chip can never run as code.
#
# From the second prompt on, a per-shell `prchip worker` answers, so no
# process starts per prompt. fish cannot wait on a pipe with a bound, so
# the prompt never waits for it: the hook shows the worker's answer to its
# previous request and writes this prompt's request, both with builtins
# only, to files in a private directory on a tmpfs ($XDG_RUNTIME_DIR, else
# /dev/shm); the worker answers at once and, when the chip should change
# (after a cd, a git checkout, a refresh that ended), sends this shell
# SIGURG, and the prompt is repainted. The worker signals only the fish
# that started it, while it still runs fish and handles SIGURG (after
# `exec bash` the pid is bash's); and SIGURG, unlike SIGUSR1, ends no
# program that does not handle it. A worker that does not answer is
# noticed at the next prompt, which then runs the one-shot `prchip prompt`
# and starts a new worker. The protocol: docs/worker-protocol.md in
# prchip's source. Without /proc (macOS) every prompt runs `prchip prompt`.
# Loading this twice installs the hooks once; the second load's binary is
# the one called from then on.
#
# prchip is called by the path of the binary that printed this. When that
# path is gone (moved, deleted, upgraded to another place), the hook runs
# the first prchip on PATH instead; with neither the chip is empty and the
# prompt quiet. PRCHIP_HOOK_EXE tells `prchip status` which path it was.
# Loaded again from another binary: the old one's worker goes.
if set -q _prchip_hooked; and test "$_prchip_exe" != @PRCHIP_EXE@
    _prchip_stop
end
set -g _prchip_exe @PRCHIP_EXE@
set -gx PRCHIP_HOOK_EXE $_prchip_exe
if not set -q _prchip_hooked
    # A function of the user's takes precedence over a builtin of the same
    # name (fish's `alias` makes one): the builtins that can be shadowed so
    # are called through `builtin`, and programs through `command`.
    set -g _prchip_hooked 1
    set -g PRCHIP ''
    set -g _prchip_run ''
    set -g _prchip_esc fish

    # The binary to run, into _prchip_run: the recorded one, else the first
    # prchip on PATH, as fish finds a command, in an absolute directory only:
    # with . on PATH, the prompt would run a prchip the repository just
    # entered holds. 1: neither. fish reports a missing command itself,
    # whatever the redirections, so every call is looked at first: a binary
    # removed under a running shell must not print on every prompt.
    function _prchip_which
        if command -q -- $_prchip_exe
            set -g _prchip_run $_prchip_exe
        else
            set -g _prchip_run (string match -- '/*' (command -a -s prchip))[1]
        end
        test -n "$_prchip_run"
    end

    # After git, gh, gt (config: invalidate_on) the repository is refreshed.
    # Every command of the line counts (fish's own tokenizer splits it),
    # after VAR=value assignments and precommand words.
    function _prchip_preexec --on-event fish_preexec
        # Exported for starship's prompt only: the commands run get no
        # chip (a child shell would show it, wherever it goes).
        test $_prchip_esc = plain; and set -gu PRCHIP $PRCHIP
        builtin printf '%s' $argv[1] | read -latz words
        set -l cmd 1
        for w in $words
            if test $cmd = 1
                switch $w
                    case command builtin exec env time and or not begin if else while '*=*'
                        continue
                end
                if builtin contains -- $w @PRCHIP_INVALIDATE_ON@
                    set -g _prchip_dirty 1
                    return
                end
                if builtin contains -- $w @PRCHIP_PROBE_ON@
                    test "$_prchip_dirty" = 1; or set -g _prchip_dirty 2
                end
                set cmd 0
            end
            switch $w
                case '&&' '||' ';' '|' '&' \n
                    set cmd 1
            end
        end
    end

    # The worker: its directory ('' without one), its pid, what it answers
    # for (fish or plain), the last request's id and directory, the
    # prompts it may still miss (three for a new worker, then one), failures
    # in a row, prompts since the last try after three, and a worker for
    # the next one-shot render to end ("pid:dir").
    set -g _prchip_wdir ''
    set -g _prchip_wpid 0
    set -g _prchip_wesc ''
    set -g _prchip_id 1
    set -g _prchip_succ 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 1
    set -g _prchip_envs
    set -g _prchip_env_stale 1
    set -g _prchip_pwd ''
    set -g _prchip_grace 0
    set -g _prchip_fails 0
    set -g _prchip_pause 0
    set -g _prchip_end ''
    # 1 after gh/gt, 2 after git only; the name of that invalidation once
    # sent (the worker and a one-shot `prchip invalidate --once` make it
    # once), and what the last request carried, until it is answered.
    set -g _prchip_dirty 0
    set -g _prchip_once ''
    set -g _prchip_sent_dirty 0
    set -g _prchip_sent_once ''
    set -g _prchip_can_work 0
    test -d /proc/$fish_pid; and set -g _prchip_can_work 1

    function _prchip_prompt --on-event fish_prompt
        set -l ret $status
        # starship's init exports STARSHIP_SHELL, but a fish started from
        # a starship shell inherits it: what this fish's prompt runs
        # decides (looked at only under STARSHIP_SHELL, as printing a
        # function costs fish a moment).
        set -g _prchip_esc fish
        if set -q STARSHIP_SHELL
            builtin functions fish_prompt 2>/dev/null | string match -q -- '*starship*prompt*'; and set -g _prchip_esc plain
        end
        # The common case, inline (a fish function call costs as much as
        # a file operation): the worker answered the last request; this
        # prompt shows its chip and writes the next request. _prchip_ask
        # and _prchip_send do the same for the other paths.
        set -l d $_prchip_wdir
        if test -n "$d" -a "$_prchip_wesc" = "$_prchip_esc"; and test -O "$d" -a -f "$d/ans"
            set -l id
            set -l chip
            read -d ' ' id chip <$d/ans
            if test "$id" = "$_prchip_id"
                set -g _prchip_grace 1
                set -g _prchip_fails 0
                test "$PWD" = "$_prchip_pwd"; or set chip ''
                if test $_prchip_esc = plain
                    set -gx PRCHIP "$chip"
                else
                    set -g PRCHIP "$chip"
                end
                set -g _prchip_id $_prchip_succ[$_prchip_id]
                set -g _prchip_pwd $PWD
                test $_prchip_env_stale = 1; and _prchip_env
                # A fresh name (not the request id: those cycle through 64).
                test $_prchip_dirty != 0 -a -z "$_prchip_once"; and set -g _prchip_once $fish_pid.(random).(random)
                builtin printf '%s\0' prchip1 $_prchip_id $PWD $_prchip_dirty:$_prchip_once "shown=$PRCHIP" $_prchip_envs '' >$d/req
                set -g _prchip_sent_dirty $_prchip_dirty
                set -g _prchip_sent_once $_prchip_once
                set -g _prchip_dirty 0
                set -g _prchip_once ''
                return $ret
            end
        end
        if test -n "$_prchip_wdir" -a "$_prchip_wesc" != "$_prchip_esc"
            _prchip_again
            _prchip_stop
        end
        set -l asked 1
        if test -n "$_prchip_wdir"
            _prchip_ask
            set asked $status
            # Not answered (yet, or for good): what the last request asked
            # to invalidate goes again, with this prompt's request or the
            # one-shot command, under the same name (the worker may have
            # made it already).
            test $asked != 0; and _prchip_again
            if test $asked = 0
                set -g _prchip_fails 0
                _prchip_send
                return $ret
            else if test $asked = 1
                _prchip_stop
                set -g _prchip_fails (builtin math $_prchip_fails + 1)
            end
        end
        if not _prchip_which
            _prchip_set ''
            # A worker that may still answer gets the request: its
            # signal brings the chip.
            test $asked = 2; and _prchip_send
            return $ret
        end
        set -l once
        test -n "$_prchip_once"; and set once --once=$_prchip_once
        if test $_prchip_dirty = 1
            $_prchip_run invalidate $once >/dev/null 2>&1
        else if test $_prchip_dirty = 2
            $_prchip_run invalidate --probe $once >/dev/null 2>&1
        end
        set -g _prchip_dirty 0
        set -g _prchip_once ''
        set -l endw
        test -n "$_prchip_end"; and set endw --end-worker=$_prchip_end
        set -g _prchip_end ''
        set -l out ($_prchip_run prompt --shell $_prchip_esc $endw 2>/dev/null)
        _prchip_set "$out[1]"
        if test $asked = 2
            # A worker that has not answered yet: it gets this request.
            _prchip_send
        else if test $_prchip_can_work = 1; and status is-interactive
            # A worker for the next prompt; after three failures in a
            # row, a new try every 50 prompts.
            test $_prchip_fails -ge 3; and set -g _prchip_pause (builtin math $_prchip_pause + 1)
            if test $_prchip_fails -lt 3 -o $_prchip_pause -ge 50
                set -g _prchip_pause 0
                _prchip_start; and _prchip_send
            end
        end
        return $ret
    end

    # Reads the worker's answer to the last request. 0: it answered, and
    # PRCHIP is its chip (none after a cd: the signal brings it); 1: the
    # worker has ended, its directory is gone, or it missed a request it
    # may not miss; 2: no answer yet from a worker that may still give one.
    function _prchip_ask
        set -l d $_prchip_wdir
        # The user's own, as a request carries tokens (a directory of
        # another's in /dev/shm under the name of one that went is not).
        test -O "$d"; or return 1
        # read splits "id chip" itself: a command substitution costs fish
        # about 80 us, more than the rest of the prompt.
        set -l id
        set -l chip
        test -f $d/ans; and read -d ' ' id chip <$d/ans
        test "$id" = end; and return 1
        if test -n "$id" -a "$id" = "$_prchip_id"
            set -g _prchip_grace 1
            if test "$PWD" = "$_prchip_pwd"
                _prchip_set "$chip"
            else
                _prchip_set ''
            end
            return 0
        end
        if test $_prchip_grace -gt 0
            set -g _prchip_grace (builtin math $_prchip_grace - 1)
            return 2
        end
        return 1
    end

    # The last request's invalidation, not known to be made, is pending
    # again. With a newer one pending too, the two go under a new name.
    function _prchip_again
        test $_prchip_sent_dirty = 0; and return
        if test $_prchip_dirty = 0
            set -g _prchip_dirty $_prchip_sent_dirty
            set -g _prchip_once $_prchip_sent_once
        else if test $_prchip_sent_dirty = 1
            set -g _prchip_dirty 1
        end
        set -g _prchip_sent_dirty 0
    end

    # Writes this prompt's request: the directory, whether to invalidate,
    # the chip shown and the exported variables the answer depends on.
    function _prchip_send
        set -l d $_prchip_wdir
        test -O "$d"; or return 1
        # The next id, from a cycle of 64 (no arithmetic: math runs in a
        # command substitution); an answer is only ever compared with the
        # request just before.
        set -g _prchip_id $_prchip_succ[$_prchip_id]
        set -g _prchip_pwd $PWD
        test $_prchip_env_stale = 1; and _prchip_env
        test $_prchip_dirty != 0 -a -z "$_prchip_once"; and set -g _prchip_once $fish_pid.(random).(random)
        builtin printf '%s\0' prchip1 $_prchip_id $PWD $_prchip_dirty:$_prchip_once "shown=$PRCHIP" $_prchip_envs '' >$d/req
        set -g _prchip_sent_dirty $_prchip_dirty
        set -g _prchip_sent_once $_prchip_once
        set -g _prchip_dirty 0
        set -g _prchip_once ''
    end

    # The exported variables the answer depends on, as NAME=value, into
    # _prchip_envs: collected again only after one of them was set or
    # erased in this shell (fish tells, --on-variable), not at every prompt.
    function _prchip_env
        set -g _prchip_env_stale 0
        set -l env
@PRCHIP_ENV_FISH@
        # git's configuration from the environment (git -c, direnv): the
        # GIT_CONFIG_COUNT pairs git reads, as many as the worker takes.
        if set -qx GIT_CONFIG_COUNT; and string match -qr -- '^([1-9]|[1-5][0-9]|6[0-4])$' "$GIT_CONFIG_COUNT"
            set -l i 0
            while test $i -lt $GIT_CONFIG_COUNT
                for k in GIT_CONFIG_KEY_$i GIT_CONFIG_VALUE_$i
                    set -qx $k; and set -a env "$k=$$k"
                end
                set i (builtin math $i + 1)
            end
        end
        set -g _prchip_envs $env
    end
    function _prchip_env_changed @PRCHIP_ENV_FISH_EVENTS@
        set -g _prchip_env_stale 1
    end

    # The worker's signal: its answer to the last request changed the chip.
    function _prchip_redraw --on-signal SIGURG
        set -l d $_prchip_wdir
        test -n "$d" -a -f "$d/ans"; or return
        set -l id
        set -l chip
        read -d ' ' id chip <$d/ans
        if test -n "$id" -a "$id" = "$_prchip_id"; and test "$chip" != "$PRCHIP"
            set -g _prchip_grace 1
            _prchip_set "$chip"
            builtin commandline -f repaint
        end
    end

    # Starts a worker in the background, on a private directory (mktemp
    # -d: 0700, a new name) on a tmpfs.
    function _prchip_start
        set -l base /tmp
        if test -n "$XDG_RUNTIME_DIR" -a -d "$XDG_RUNTIME_DIR" -a -O "$XDG_RUNTIME_DIR"
            set base $XDG_RUNTIME_DIR
        else if test -d /dev/shm -a -w /dev/shm
            set base /dev/shm
        end
        set -l d (command mktemp -d $base/prchip-fish.XXXXXXXXXX 2>/dev/null)
        test -n "$d"; or return 1
        set -l plain
        test $_prchip_esc = plain; and set plain --plain
        command $_prchip_run worker --shell fish $plain --pid $fish_pid --files $d </dev/null >/dev/null 2>&1 &
        set -g _prchip_wpid $last_pid
        builtin disown 2>/dev/null
        set -g _prchip_wdir $d
        set -g _prchip_wesc $_prchip_esc
        set -g _prchip_grace 3
    end

    # Forgets the worker; the next one-shot render ends it (through a
    # pidfd, once it is sure the process is that worker: the shell can only
    # signal a number, which may name another process by now) and removes
    # its directory.
    function _prchip_stop
        test -n "$_prchip_wdir"; and set -g _prchip_end "$_prchip_wpid:$_prchip_wdir"
        set -g _prchip_wdir ''
    end

    # Sets PRCHIP; under starship, exported.
    function _prchip_set
        if test $_prchip_esc = plain
            set -gx PRCHIP $argv[1]
        else
            set -g PRCHIP $argv[1]
        end
    end
end
