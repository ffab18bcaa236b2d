# prchip for zsh: eval "$(prchip init zsh)" in ~/.zshrc.
#
# The hook keeps the chip in $PRCHIP, already escaped for zsh (and safe even
# when pasted into PROMPT). Reference it by name in single quotes
# (prompt_subst is turned on):
#   PROMPT='%~ ${PRCHIP:+$PRCHIP }%# '
#   RPROMPT='${PRCHIP}'
# From the second prompt on, a per-shell `prchip worker` answers over two
# FIFOs, so no process starts per prompt (the protocol: docs/worker-protocol.md
# in prchip's source). When a background refresh finishes while the prompt is
# shown, the prompt is redrawn (zle -F), so the chip appears without pressing
# Enter. Loading this twice installs the hooks once; the second load's
# binary is the one called from then on.
#
# prchip is called by the path of the binary that printed this. When that
# path is gone (moved, deleted, upgraded to another place), the hook runs
# the first prchip on PATH instead; with neither the chip is empty and the
# prompt quiet. PRCHIP_HOOK_EXE tells `prchip status` which path it was.
# Loaded again from another binary: the worker the old one started goes.
if (( ${+_prchip_hooked} )) && [[ $_prchip_exe != @PRCHIP_EXE@ ]]; then
  _prchip_stop
fi
typeset -g _prchip_exe=@PRCHIP_EXE@
typeset -gx PRCHIP_HOOK_EXE=$_prchip_exe
if (( ! ${+_prchip_hooked} )); then
  typeset -g _prchip_hooked=1
  typeset -g PRCHIP='' _prchip_run=''
  typeset -gi _prchip_dirty=0
  # The name of that invalidation once sent, so that the worker and a
  # one-shot `prchip invalidate --once` after a late answer make it once.
  typeset -g _prchip_once=''
  # The one-shot path's redraw waiter.
  typeset -gi _prchip_fd=0 _prchip_rearm=0
  # The worker: its request and response descriptors, the read-write
  # response descriptor kept until its hello, its pid, its FIFO directory
  # (until the hello, and for good as its name), the last request's id,
  # bytes read but not used yet, failures in a row, prompts since the last
  # try after three, and a worker to end ("pid:dir").
  typeset -gi _prchip_req=0 _prchip_resp=0 _prchip_resp_rw=0 _prchip_wpid=0 _prchip_id=0 _prchip_fails=0 _prchip_pause=0
  typeset -g _prchip_dir='' _prchip_wdir='' _prchip_buf='' _prchip_end=''
  # The memo's key: what the last answered request was asked with.
  typeset -g _prchip_key=''
  typeset -gi _prchip_can_work=0 _prchip_bang=0
  # What the chip is escaped for: zsh, or plain under starship (see
  # _prchip_precmd); and what the running worker answers.
  typeset -g _prchip_esc=zsh _prchip_wesc=
  zmodload zsh/system zsh/datetime zsh/parameter 2>/dev/null
  if (( ${+builtins[sysopen]} && ${+builtins[sysread]} && ${+EPOCHREALTIME} && ${+parameters} )); then
    _prchip_can_work=1
  fi

  # After git, gh, gt (config: invalidate_on) the repository is refreshed.
  # Every command of the line counts, aliases expanded ($3), after VAR=value
  # assignments and precommand words: `gp`, `make && gh pr create` and
  # `GIT_EDITOR=vim git commit` all do.
  _prchip_preexec() {
    emulate -L zsh
    # Exported for starship's prompt only: the commands run get no chip
    # (a child shell would show it, wherever it goes).
    [[ $_prchip_esc == plain ]] && typeset -g +x PRCHIP
    local w cmd=1
    for w in ${(z)${3:-$1}}; do
      if (( cmd )); then
        case $w in
          ([[:alpha:]_]*=*|command|builtin|exec|noglob|nocorrect|nohup|env|time|if|then|else|elif|while|until|do|'!'|'('|'{') continue ;;
          (@PRCHIP_INVALIDATE_CASE@) _prchip_dirty=1; return 0 ;;
          (@PRCHIP_PROBE_CASE@) (( _prchip_dirty == 1 )) || _prchip_dirty=2 ;;
        esac
        cmd=0
      fi
      case $w in
        ('&&'|'||'|';'|'|'|'|&'|'&'|'&!'|'&|'|'('|'{') cmd=1 ;;
      esac
    done
    return 0
  }

  # The one-shot path (the first prompt, and whenever the worker fails):
  # renders the chip into PRCHIP with `prchip prompt` (extra flags: $@).
  # When a background refresh is in flight, a waiter (one at a time) tells
  # zle when it ends: it prints nothing, and its end makes the descriptor
  # readable.
  _prchip_render() {
    emulate -L zsh
    local out
    out=$("$_prchip_run" prompt --shell $_prchip_esc --async "$@" 2>/dev/null)
    PRCHIP=${out%%$'\n'*}
    (( _prchip_bang )) && PRCHIP=${PRCHIP//\!/!!}
    if [[ $out == *$'\n'refreshing ]] && (( _prchip_fd == 0 )) && [[ -o zle ]]; then
      exec {_prchip_fd}< <("$_prchip_run" prompt --shell zsh --wait 2>/dev/null)
      zle -F -w $_prchip_fd _prchip_ready
    fi
  }

  # Redraws the prompt from one of the widgets below. powerlevel10k writes
  # its prompt for the user's ksh_arrays and sh_glob, which `emulate -L
  # zsh` turns off here: a plain reset-prompt would draw p10k's code
  # instead of its prompt. `p10k display -r` is p10k's own redraw, which
  # puts them back (and waits while a p10k widget runs); an older p10k
  # without -r, or the stub its instant prompt defines, fails and zle
  # redraws.
  _prchip_redraw() {
    if (( ${+functions[p10k]} )) && p10k display -r 2>/dev/null; then
      return 0
    fi
    zle reset-prompt
  }

  # A zle widget run when the waiter ends: so has the refresh. The chip is
  # rendered again where the shell is now (the user may have left that
  # repository or switched branches meanwhile). Once per prompt it may
  # start a refresh and a waiter of its own (the new branch or repository
  # may need one); after that it only reads, so a refresh that cannot
  # record its result never becomes a loop.
  _prchip_ready() {
    emulate -L zsh
    local fd=$1 old=$PRCHIP
    zle -F $fd
    exec {fd}<&-
    _prchip_fd=0
    if (( _prchip_rearm )); then
      _prchip_rearm=0
      _prchip_render
    else
      _prchip_render --no-refresh
    fi
    if [[ $PRCHIP != "$old" ]]; then
      _prchip_redraw
    fi
  }
  zle -N _prchip_ready

  # The binary the one-shot path and a new worker run, into _prchip_run:
  # the recorded one, else the first prchip on PATH (an executable file, as
  # the shell's own search finds it: dir/prchip globbed with N-.*, no
  # fork). Absolute PATH entries only: with . or an empty entry on PATH,
  # the prompt would run a prchip the repository just entered holds.
  # 1: neither. Only the paths that start a process look, so a prompt the
  # worker answers costs no stat.
  _prchip_which() {
    emulate -L zsh
    if [[ -f $_prchip_exe && -x $_prchip_exe ]]; then
      _prchip_run=$_prchip_exe
      return 0
    fi
    local -a found=( ${^${(M)path:#/*}}/prchip(N-.*) )
    _prchip_run=${found[1]-}
    [[ -n $_prchip_run ]]
  }

  # Starts a worker for the next prompts, in the background: nothing waits
  # for it. Both FIFOs are opened read-write first, which never blocks.
  _prchip_start() {
    emulate -L zsh -o no_bg_nice
    _prchip_dir=$(command mktemp -d "${TMPDIR:-/tmp}/prchip.XXXXXXXXXX" 2>/dev/null) || return 1
    # All three ends are open before the worker starts (it unlinks the
    # FIFOs at once); the read-only one does not block, as the read-write
    # one is a writer. Requests are written without blocking: a request
    # the pipe cannot take fails (and that prompt takes the one-shot path)
    # instead of hanging once the worker is gone.
    if command mkfifo -m 600 -- $_prchip_dir/req $_prchip_dir/resp 2>/dev/null &&
      sysopen -rw -o cloexec,nonblock -u _prchip_req -- $_prchip_dir/req 2>/dev/null &&
      sysopen -rw -o cloexec -u _prchip_resp_rw -- $_prchip_dir/resp 2>/dev/null &&
      sysopen -r -o cloexec -u _prchip_resp -- $_prchip_dir/resp 2>/dev/null; then
      "$_prchip_run" worker --shell zsh ${${(M)_prchip_esc:#plain}:+--plain} --pid $$ --fifos $_prchip_dir </dev/null >/dev/null 2>&1 &!
      _prchip_wesc=$_prchip_esc
      _prchip_wpid=$! _prchip_wdir=$_prchip_dir
      _prchip_buf=''
      return 0
    fi
    _prchip_stop
    return 1
  }

  # Forgets the worker. With "kill" (a worker that did not answer in
  # time, its hello said or not: one stopped before its hello would
  # otherwise stay stopped for good) it is also to be ended, by the next
  # `prchip prompt` (_prchip_end): the shell never signals it itself, as by
  # now its pid may name another process; prchip signals it through a
  # pidfd, once it has made sure the process is this worker (its pid and
  # FIFO directory in its command line).
  _prchip_stop() {
    emulate -L zsh
    if [[ ${1-} == kill ]] && (( _prchip_wpid > 0 )); then
      _prchip_end=$_prchip_wpid:$_prchip_wdir
    fi
    # The FIFOs go first: a worker not started yet then finds nothing.
    # After its hello the worker has removed them; its directory (the
    # memo's) goes here too, in case the worker was killed outright.
    [[ -n ${_prchip_dir:-$_prchip_wdir} ]] && command rm -rf -- ${_prchip_dir:-$_prchip_wdir} 2>/dev/null
    if (( _prchip_resp )); then
      zle -F $_prchip_resp 2>/dev/null
      exec {_prchip_resp}<&-
    fi
    (( _prchip_req )) && exec {_prchip_req}>&-
    (( _prchip_resp_rw )) && exec {_prchip_resp_rw}>&-
    _prchip_req=0 _prchip_resp=0 _prchip_resp_rw=0 _prchip_wpid=0 _prchip_dir='' _prchip_wdir='' _prchip_buf=''
    return 0
  }

  # The worker holds both FIFOs (and has unlinked them): from now on its end
  # shows as end-of-file on resp, and zle hears its pushes.
  _prchip_hello() {
    emulate -L zsh
    (( _prchip_resp_rw )) && exec {_prchip_resp_rw}>&-
    _prchip_resp_rw=0 _prchip_dir=''
    _prchip_wpid=${1:-$_prchip_wpid}
    [[ -o zle ]] && zle -F -w $_prchip_resp _prchip_pushed 2>/dev/null
    return 0
  }

  # Asks the worker for this prompt's chip. 0: PRCHIP is set; 1: the worker
  # is gone; 2: it did not answer within the budget. It runs at every
  # prompt, so the common case is one write and one read.
  _prchip_ask() {
    emulate -L zsh
    local line chunk key=''
    local -a env kw
    local -i i fd
    local k
    # The memo: while the worker's last answer stands (nothing it depends
    # on changed, no refresh came due), the worker keeps it in a file in
    # its directory, and a prompt that would send the same request reads
    # it there instead of asking: no request wakes the worker, no answer
    # is waited for. The same request: the same directory and variables
    # (key, secrets reduced to a fingerprint, against _prchip_key, the
    # last answered request's), no invalidation, no git -c variables and
    # no proxy with a password (they would stay in the shell). The worker, told by inotify, removes
    # the memo as soon as a file the answer depends on changes; the line
    # is "UNTIL chip", UNTIL the Unix time a refresh comes due. It must be
    # the user's own (-O on the open descriptor), and the worker alive and
    # not stopped (its /proc stat: a worker killed or stopped would leave
    # a memo no change removes), and the process with its pid still the
    # one that wrote it (its start time). docs/worker-protocol.md.
    if (( _prchip_wpid > 0 )) && [[ -z ${GIT_CONFIG_PARAMETERS-}${GIT_CONFIG_COUNT-} && @PRCHIP_PROXIES@ != *@* ]]; then
@PRCHIP_KEY_ZSH@
      if (( ! _prchip_dirty )) && [[ $key == $_prchip_key && -f $_prchip_wdir/memo ]]; then
        # The worker is looked at first, its /proc stat after "pid (comm) ":
        # its state, and (the 20th) its start time, which the memo names
        # after its time. While it lives, its directory is the one it made
        # (no one else can replace a directory of the user's in sticky
        # /tmp), so nothing is read from one that took its name after it
        # ended.
        k=$(</proc/$_prchip_wpid/stat) 2>/dev/null
        kw=(${=${k#*\) }})
        # Not blocking: a FIFO put there would hold the open and the read.
        if [[ $kw[1] == [RSD] ]] && sysopen -r -o cloexec,nonblock -u fd -- $_prchip_wdir/memo 2>/dev/null; then
          [[ -f /dev/fd/$fd && -O /dev/fd/$fd ]] && sysread -s 4096 -i $fd line
          exec {fd}<&-
          # The whole line only: one cut short (a write the disk cut) has
          # no newline, and its chip is cut too.
          if [[ $line[1,10] == <-> && $line[11,-1] == " $kw[20] "*$'\n' ]] && (( 10#$line[1,10] > ${EPOCHSECONDS:-9999999999} )); then
            PRCHIP=${line[$(( 13 + $#kw[20] )),-2]}
            (( _prchip_bang )) && PRCHIP=${PRCHIP//\!/!!}
            return 0
          fi
        fi
      fi
    fi
    _prchip_key=''
@PRCHIP_ENV_ZSH@
    # git's configuration from the environment (git -c, direnv): the
    # GIT_CONFIG_COUNT pairs git reads, as many as the worker takes.
    if [[ $GIT_CONFIG_COUNT == <1-64> && ${(t)GIT_CONFIG_COUNT} == *-export* ]]; then
      for (( i = 0; i < GIT_CONFIG_COUNT; i++ )); do
        for k in GIT_CONFIG_KEY_$i GIT_CONFIG_VALUE_$i; do
          [[ ${(tP)k} == *-export* ]] && env+=("$k=${(P)k}")
        done
      done
    fi
    (( _prchip_dirty )) && [[ -z $_prchip_once ]] && _prchip_once=$$.$RANDOM.$_prchip_id
    print -rNu $_prchip_req -- prchip1 $(( ++_prchip_id )) $PWD $_prchip_dirty${_prchip_once:+:$_prchip_once} $env '' 2>/dev/null || return 1
    local -F deadline left=@PRCHIP_BUDGET_S@
    while true; do
      sysread -t $left -s 4096 -i $_prchip_resp chunk
      case $? in
        (0) _prchip_buf+=$chunk ;;
        (4) return 2 ;;
        (*) return 1 ;;
      esac
      while [[ $_prchip_buf == *$'\n'* ]]; do
        line=${_prchip_buf%%$'\n'*}
        _prchip_buf=${_prchip_buf#*$'\n'}
        case $line in
          ("$_prchip_id "*)
            PRCHIP=${line#* } _prchip_key=$key
            (( _prchip_bang )) && PRCHIP=${PRCHIP//\!/!!}
            return 0 ;;
          ('hello '*) _prchip_hello ${line#hello } ;;
        esac
      done
      (( deadline )) || (( deadline = EPOCHREALTIME + left ))
      (( (left = deadline - EPOCHREALTIME) > 0 )) || return 2
    done
  }

  # A zle widget run when the worker writes while the prompt is shown: a
  # refresh ended and the chip changed. End-of-file: the worker is gone,
  # and the next prompt starts another.
  _prchip_pushed() {
    emulate -L zsh
    local chunk line old=$PRCHIP
    if [[ -n ${2-} ]] || ! sysread -t 0 -s 4096 -i $1 chunk; then
      _prchip_stop
      return 0
    fi
    _prchip_buf+=$chunk
    while [[ $_prchip_buf == *$'\n'* ]]; do
      line=${_prchip_buf%%$'\n'*}
      _prchip_buf=${_prchip_buf#*$'\n'}
      if [[ $line == 'push '* ]]; then
        PRCHIP=${line#push }
        (( _prchip_bang )) && PRCHIP=${PRCHIP//\!/!!}
      fi
    done
    if [[ $PRCHIP != "$old" ]]; then
      _prchip_redraw
    fi
    return 0
  }
  zle -N _prchip_pushed

  _prchip_precmd() {
    local ret=$?
    # The user's prompt_bang, read before emulate resets it: under it a '!'
    # in the prompt is the history number, so the chip's are doubled. Into
    # a local: an assignment to a global here, before emulate, would be
    # reported under the user's warn_nested_var.
    local -i bang=0
    [[ -o prompt_bang ]] && bang=1
    emulate -L zsh
    _prchip_bang=$bang _prchip_rearm=1
    # When starship draws this shell's prompt (its init exports
    # STARSHIP_SHELL and puts its precmd function in precmd_functions, or
    # PROMPT runs `starship prompt`), its env_var module shows $PRCHIP:
    # plain text, exported, escaped by starship itself. Not STARSHIP_SHELL
    # alone: a zsh started from a starship shell inherits it, and would
    # then expand the %-sequences of a title.
    if [[ -n ${STARSHIP_SHELL-} ]] && { (( ${precmd_functions[(I)(prompt_|)starship_precmd]} )) || [[ $PROMPT == *starship*prompt* ]] }; then
      _prchip_esc=plain _prchip_bang=0
      typeset -gx PRCHIP
    else
      _prchip_esc=zsh
    fi
    (( _prchip_req )) && [[ $_prchip_wesc != $_prchip_esc ]] && _prchip_stop
    if (( _prchip_req )); then
      _prchip_ask
      case $? in
        (0) _prchip_dirty=0 _prchip_once='' _prchip_fails=0; return $ret ;;
        (2) _prchip_stop kill ;;
        (*) _prchip_stop ;;
      esac
      (( ++_prchip_fails ))
    fi
    if ! _prchip_which; then
      PRCHIP=''
      return $ret
    fi
    if (( _prchip_dirty )); then
      if (( _prchip_dirty == 2 )); then
        "$_prchip_run" invalidate --probe ${_prchip_once:+--once=$_prchip_once} >/dev/null 2>&1
      else
        "$_prchip_run" invalidate ${_prchip_once:+--once=$_prchip_once} >/dev/null 2>&1
      fi
      _prchip_dirty=0 _prchip_once=
    fi
    _prchip_render ${_prchip_end:+--end-worker=$_prchip_end}
    _prchip_end=''
    # A worker for the next prompt; after three failures in a row, a new
    # try every 50 prompts.
    if (( _prchip_can_work && ! _prchip_req )) && (( _prchip_fails < 3 || ++_prchip_pause >= 50 )); then
      _prchip_pause=0
      _prchip_start
    fi
    return $ret
  }

  autoload -Uz add-zsh-hook
  add-zsh-hook precmd _prchip_precmd
  add-zsh-hook preexec _prchip_preexec
fi
