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
# fish prints variables as text, so a chip can never run as code. When a
# background refresh ends while the prompt is shown, a disowned waiter (a
# `prchip prompt --wait` this shell started) sends this shell SIGURG and
# the prompt is repainted. The waiter holds its parent by a pidfd, so a
# shell that has ended meanwhile is never confused with a process that has
# its pid since, and signals it only while it still runs the fish it
# started from and handles SIGURG: after `exec bash` the pid is bash's. And
# SIGURG, unlike SIGUSR1, ends no program that does not handle it.
# Loading this twice installs the hooks once; the second load's binary is
# the one called from then on.
#
# prchip is called by the path of the binary that printed this. When that
# path is gone (moved, deleted, upgraded to another place), the hook runs
# the first prchip on PATH instead; with neither the chip is empty and the
# prompt quiet. PRCHIP_HOOK_EXE tells `prchip status` which path it was.
set -g _prchip_exe @PRCHIP_EXE@
set -gx PRCHIP_HOOK_EXE $_prchip_exe
if not set -q _prchip_hooked
    # A function of the user's takes precedence over a builtin of the same
    # name (fish's `alias` makes one): the builtins that can be shadowed so
    # are called through `builtin`, and date through `command`.
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
                    set -q _prchip_dirty; or set -g _prchip_dirty 2
                end
                set cmd 0
            end
            switch $w
                case '&&' '||' ';' '|' '&' \n
                    set cmd 1
            end
        end
    end

    function _prchip_prompt --on-event fish_prompt
        set -l ret $status
        if not _prchip_which
            set -g PRCHIP ''
            return $ret
        end
        if set -q _prchip_dirty
            if test "$_prchip_dirty" = 2
                $_prchip_run invalidate --probe >/dev/null 2>&1
            else
                $_prchip_run invalidate >/dev/null 2>&1
            end
            set -e _prchip_dirty
        end
        # starship's init exports STARSHIP_SHELL, but a fish started from
        # a starship shell inherits it: what this fish's prompt runs
        # decides (looked at only under STARSHIP_SHELL, as printing a
        # function costs fish a moment).
        set -g _prchip_esc fish
        if set -q STARSHIP_SHELL
            builtin functions fish_prompt 2>/dev/null | string match -q -- '*starship*prompt*'; and set -g _prchip_esc plain
        end
        set -l out ($_prchip_run prompt --shell $_prchip_esc --async 2>/dev/null)
        _prchip_set "$out[1]"
        if test "$out[2]" = refreshing; and status is-interactive
            # One waiter at a time; a stuck one is forgotten after 20 s.
            if not set -q _prchip_waiting; or test (builtin math (command date +%s) - $_prchip_waiting) -gt 20
                set -g _prchip_waiting (command date +%s)
                command $_prchip_run prompt --shell fish --wait --signal-parent >/dev/null 2>&1 &
                builtin disown 2>/dev/null
            end
        end
        return $ret
    end

    function _prchip_redraw --on-signal SIGURG
        set -e _prchip_waiting
        _prchip_which; or return
        set -l chip ($_prchip_run prompt --shell $_prchip_esc --no-refresh 2>/dev/null)
        if test "$chip" != "$PRCHIP"
            _prchip_set "$chip"
            builtin commandline -f repaint
        end
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
