# prchip for bash: eval "$(prchip init bash)" in ~/.bashrc.
#
# The hook keeps the chip in $PRCHIP. Reference it by name in PS1, never
# paste its value (bash expands the variable when it draws the prompt):
#   PS1='\w ${PRCHIP:+$PRCHIP }\$ '
# or, in double quotes:  PS1="\w \${PRCHIP} \$ "
# From the second prompt on, a per-shell `prchip worker` answers over two
# FIFOs, so no process starts per prompt (the protocol: docs/worker-protocol.md
# in prchip's source; bash 5 or later, else every prompt runs `prchip prompt`).
# bash cannot redraw a prompt from outside, so a refresh that finishes
# while the prompt is shown appears at the next prompt.
# Loading this twice installs the hook once; the second load's binary is
# the one called from then on.
#
# prchip is called by the path of the binary that printed this. When that
# path is gone (moved, deleted, upgraded to another place), the hook runs
# the first prchip on PATH instead; with neither the chip is empty and the
# prompt quiet. PRCHIP_HOOK_EXE tells `prchip status` which path it was.
# Loaded again from another binary: the worker the old one started goes.
#
# The functions are defined with alias expansion off (and the user's
# setting put back at the end), so an `alias local=...` in ~/.bashrc cannot
# change them; every word before that is quoted, which no alias matches.
'builtin' 'shopt' '-q' 'expand_aliases' && _prchip_aliases=1 || _prchip_aliases=''
'builtin' 'shopt' '-u' 'expand_aliases'
if [[ -n ${_prchip_hooked-} && ${_prchip_exe-} != @PRCHIP_EXE@ ]]; then
  _prchip_stop || :
fi
_prchip_exe=@PRCHIP_EXE@
export PRCHIP_HOOK_EXE="$_prchip_exe"
if [[ -z ${_prchip_hooked-} ]]; then
  _prchip_hooked=1
  PRCHIP='' _prchip_run=''
  # What the chip is escaped for: bash, or plain under starship (see
  # _prchip_hook); and what the running worker answers.
  _prchip_esc=bash _prchip_wesc=''
  # _prchip_dirty: 1 after gh/gt, 2 after git only; _prchip_once names
  # that invalidation when first sent, so the worker and a one-shot
  # `prchip invalidate --once` after a late answer make it once.
  _prchip_dirty=0 _prchip_once=''
  _prchip_last_hist=''
  # The worker: its FIFO directory ("" without a worker), its pid (from its
  # hello), the last request's id, failures in a row, prompts since the
  # last try after three, and a worker to end ("pid:dir"). The worker
  # needs bash 5 (EPOCHREALTIME, ${var@a}).
  _prchip_wdir='' _prchip_wpid=0
  _prchip_id=0 _prchip_fails=0 _prchip_pause=0 _prchip_can_work=0 _prchip_end=''
  # The question's budget, and its scratch variables (_prchip_ask).
  _prchip_budget=@PRCHIP_BUDGET_US@ _prchip_ae='' _prchip_env=()
  # The memo's key: what the last answered request was asked with.
  _prchip_key='' _prchip_mk=''
  if (( BASH_VERSINFO[0] >= 5 )); then
    _prchip_can_work=1
  fi

  # After git, gh, gt (config: invalidate_on) the repository is refreshed.
  # _prchip_scan takes one command's first word after VAR=value assignments
  # and precommand words (`GIT_EDITOR=vim git commit` counts). A DEBUG trap
  # sees each simple command before it runs, aliases expanded and without a
  # fork, so `gp` and `make && gh pr create` count too. bash-preexec
  # (loaded by atuin and others) takes the DEBUG trap over and runs ours
  # once per line: the hook then takes the whole command line from
  # bash-preexec's preexec_functions (_prchip_preexec), with no fork of its
  # own. When another tool owns the DEBUG trap, the last history line is
  # read instead (a fork per prompt). Either way the line is split at
  # ; & | with aliases expanded by hand.
  # The trap runs before every simple command the user runs, so it is
  # kept to one case on the first word: BASH_COMMAND is the command as
  # bash prints it, words separated by single spaces (a bracket class such
  # as [[:space:]] in a pattern costs bash about 5 us a command, measured).
  _prchip_debug() {
    case ${BASH_COMMAND%% *} in
      @PRCHIP_INVALIDATE_CASE@) _prchip_dirty=1 ;;
      @PRCHIP_PROBE_CASE@) (( _prchip_dirty == 1 )) || _prchip_dirty=2 ;;
      *=*|command|builtin|exec|nohup|env|time|'!')
        # An assignment alone (no space) runs nothing.
        [[ $BASH_COMMAND != *' '* ]] || _prchip_scan "$BASH_COMMAND" ;;
    esac
    return 0
  }
  # $1: words separated by single spaces; $2 set: expand an alias.
  _prchip_scan() {
    local rest=$1 w
    while :; do
      w=${rest%% *}
      case $w in
        ''|*=*|command|builtin|exec|nohup|env|time|'!')
          [[ $rest == *' '* ]] || return 0
          rest=${rest#* } ;;
        *) break ;;
      esac
    done
    if [[ -n ${2-} && -n ${BASH_ALIASES[$w]-} ]]; then
      w=${BASH_ALIASES[$w]}
      w=${w%%[[:space:]]*}
    fi
    case $w in
      @PRCHIP_INVALIDATE_CASE@) _prchip_dirty=1 ;;
      @PRCHIP_PROBE_CASE@) (( _prchip_dirty == 1 )) || _prchip_dirty=2 ;;
    esac
  }
  # bash-preexec's hook: $1 is the command line about to run. It returns
  # 0, as a status of 1 would stop the command under extdebug.
  _prchip_preexec() {
    local rest=${1-} part
    rest=${rest//[[:space:]]/ }
    rest=${rest//[;&|]/$'\n'}
    while [[ -n $rest ]]; do
      part=${rest%%$'\n'*}
      if [[ $rest == *$'\n'* ]]; then
        rest=${rest#*$'\n'}
      else
        rest=''
      fi
      _prchip_scan "$part" alias
    done
    return 0
  }
  if [[ -z $(trap -p DEBUG) ]]; then
    trap '_prchip_debug' DEBUG
    _prchip_use_trap=1
  fi

  _prchip_hook() {
    # Statuses are caught (|| :), never left bare: under the user's set -e
    # a bare failing command would end the shell.
    local ret=$?
    if [[ -n ${bash_preexec_imported-}${__bp_imported-} ]]; then
      # Ours once, after the user's (they may be added after this hook).
      if [[ " ${preexec_functions[*]-} " != *' _prchip_preexec '* ]]; then
        preexec_functions+=(_prchip_preexec)
      fi
      _prchip_use_trap=bp
    elif [[ -z ${_prchip_use_trap-} ]]; then
      local last part
      last=$(HISTTIMEFORMAT='' builtin history 1 2>/dev/null)
      if [[ -n $last && $last != "$_prchip_last_hist" ]]; then
        _prchip_last_hist=$last
        last=${last#*[0-9]  }
        last=${last//[[:space:]]/ }
        while IFS= builtin read -r part; do
          _prchip_scan "$part" alias
        done <<< "${last//[;&|]/$'\n'}"
      fi
    fi
    # When starship draws this shell's prompt (its init exports
    # STARSHIP_SHELL and puts starship_precmd in PROMPT_COMMAND), its
    # env_var module shows $PRCHIP: plain text, exported, escaped by
    # starship itself. Not STARSHIP_SHELL alone: a bash started from a
    # starship shell inherits it.
    if [[ -n ${STARSHIP_SHELL-} && ${PROMPT_COMMAND[*]-} == *starship_precmd* ]]; then
      _prchip_esc=plain
      export PRCHIP
    else
      _prchip_esc=bash
    fi
    if [[ -n $_prchip_wdir && $_prchip_wesc != "$_prchip_esc" ]]; then
      _prchip_stop
    elif [[ -n $_prchip_wdir ]]; then
      _prchip_ask
      case $_prchip_rc in
        0) _prchip_dirty=0 _prchip_once='' _prchip_fails=0; return "$ret" ;;
        2) _prchip_stop; (( ++_prchip_fails )) ;;
        3) ;; # a request or chip too large for the pipe: this prompt only
        *) _prchip_stop; (( ++_prchip_fails )) ;;
      esac
    fi
    if ! _prchip_which; then
      PRCHIP=
      return "$ret"
    fi
    if (( _prchip_dirty == 2 )); then
      "$_prchip_run" invalidate --probe ${_prchip_once:+--once "$_prchip_once"} >/dev/null 2>&1 || :
    elif (( _prchip_dirty )); then
      "$_prchip_run" invalidate ${_prchip_once:+--once "$_prchip_once"} >/dev/null 2>&1 || :
    fi
    _prchip_dirty=0 _prchip_once=
    PRCHIP=$("$_prchip_run" prompt --shell "$_prchip_esc" ${_prchip_end:+"--end-worker=$_prchip_end"} 2>/dev/null) || PRCHIP=
    _prchip_end=''
    # A worker for the next prompt; after three failures in a row, a new
    # try every 50 prompts.
    if [[ -z $_prchip_wdir ]] && (( _prchip_can_work )) && (( _prchip_fails < 3 || ++_prchip_pause >= 50 )); then
      _prchip_pause=0
      _prchip_start || :
    fi
    return "$ret"
  }

  # The binary the one-shot path and a new worker run, into _prchip_run:
  # the recorded one, else the first executable prchip in PATH's
  # directories, searched as bash searches them, with no fork and without
  # touching the user's hash table (whose entry may be stale). Absolute
  # entries only: with . or an empty entry on PATH, the prompt would run a
  # prchip the repository just entered holds. 1: neither. Only the paths
  # that start a process look, so a prompt the worker answers costs no stat.
  _prchip_which() {
    if [[ -f $_prchip_exe && -x $_prchip_exe ]]; then
      _prchip_run=$_prchip_exe
      return 0
    fi
    local dir rest=${PATH-}:
    while [[ -n $rest ]]; do
      dir=${rest%%:*} rest=${rest#*:}
      if [[ $dir == /* && -f $dir/prchip && -x $dir/prchip ]]; then
        _prchip_run=$dir/prchip
        return 0
      fi
    done
    _prchip_run=
    return 1
  }

  # Starts a worker for the next prompts, in the background (a subshell's
  # job: no job notice, not the shell's job), on two FIFOs in a private
  # directory. The shell holds no descriptor of them between prompts: bash
  # cannot mark one close-on-exec, and every command started from the
  # prompt (su, sudo, setpriv and what they run as another user included)
  # would inherit it, and with it the worker's channel.
  _prchip_start() {
    _prchip_wdir=$(command mktemp -d "${TMPDIR:-/tmp}/prchip.XXXXXXXXXX" 2>/dev/null) || { _prchip_wdir=''; return 1; }
    if command mkfifo -m 600 -- "$_prchip_wdir/req" "$_prchip_wdir/resp" 2>/dev/null; then
      local plain=
      [[ $_prchip_esc == plain ]] && plain=--plain
      ("$_prchip_run" worker --shell bash ${plain:+"$plain"} --pid "$$" --fifos "$_prchip_wdir" </dev/null >/dev/null 2>&1 &)
      _prchip_wesc=$_prchip_esc
      return 0
    fi
    _prchip_stop
    return 1
  }

  # Forgets the worker, and has it ended by the next `prchip prompt`
  # (_prchip_end) once its hello named it: without its FIFOs it can serve
  # no one. The shell never signals it itself, as by now its pid may name
  # another process; prchip signals it through a pidfd, once it has made
  # sure the process is this worker (its pid and FIFO directory).
  _prchip_stop() {
    if (( _prchip_wpid > 0 )) && [[ -n $_prchip_wdir ]]; then
      _prchip_end=$_prchip_wpid:$_prchip_wdir
    fi
    # The FIFOs go first: a worker not started yet then finds nothing.
    if [[ -n $_prchip_wdir ]]; then
      command rm -rf -- "$_prchip_wdir" 2>/dev/null || :
    fi
    _prchip_wpid=0 _prchip_wdir=''
    return 0
  }

  # Asks the worker for this prompt's chip, into _prchip_rc. 0: PRCHIP is
  # set; 1: the worker is gone (its directory with it); 2: it did not
  # answer within the budget; 3: the request or the chip is too large
  # for the pipe (the one-shot render draws this prompt).
  # It runs at every prompt, so it is one function with no locals (its
  # variables are _prchip_ globals: a local costs bash about 0.6 us) and
  # the common case is one write and two or three reads (measured: these
  # and the reads below took 20-25 us off a prompt of about 250).
  _prchip_ask() {
    # Each of the variables the answer depends on as ${NAME@A}: its value,
    # and whether it is exported (`declare -x`), in one expansion, which
    # the user's set -u would refuse for a name that is unset (local -
    # puts the option back on return).
    [[ $- != *u* ]] || { local -; set +u; }
    # The memo: while the worker's last answer stands (nothing it depends
    # on changed, no refresh came due), the worker keeps it in a file, and
    # a prompt that would send the same request reads it there instead of
    # asking: no request wakes the worker, no answer is waited for. The
    # same request: the same directory and variables (_prchip_mk, secrets
    # reduced to a fingerprint, against _prchip_key, the last answered
    # request's), no invalidation, no git -c variables and no proxy with
    # a password (they would stay in the shell). The worker, told by inotify, removes the memo as soon
    # as a file the answer depends on changes; the line is "UNTIL chip",
    # UNTIL the Unix time a refresh comes due (ten digits, compared as
    # strings: no arithmetic on the file's text). It must be the user's
    # own (-O on the open descriptor, as the FIFOs), and the worker
    # alive and not stopped (its /proc stat: a worker killed or stopped
    # would leave a memo no change removes), and the process with its pid
    # still the one that wrote it (its start time). docs/worker-protocol.md.
    _prchip_mk=''
    if [[ -z ${GIT_CONFIG_PARAMETERS-}${GIT_CONFIG_COUNT-} && @PRCHIP_PROXIES@ != *@* ]] && (( _prchip_wpid > 0 )); then
      # shellcheck disable=SC2154 # the lower-case proxy names are the user's
@PRCHIP_KEY_BASH@
      if (( ! _prchip_dirty )) && [[ $_prchip_mk == "$_prchip_key" ]]; then
        # The worker's /proc stat as fields: the third is its state, the
        # 22nd its start time, which the memo names after its time (the
        # second, "(prchip)", has no space; a pattern such as ${line##*) }
        # would cost 80 us).
        _prchip_line='' _prchip_sa=()
        # Opened read-write, which never blocks, and read only when the
        # open descriptor is a regular file of the user's: a FIFO put there
        # would block a read-only open for good (the directory's name is
        # free in /tmp for anyone once the worker ended and removed it).
        # The worker is looked at first: while it lives, its directory is
        # the one it made (no one else can replace a directory of the
        # user's in sticky /tmp), so nothing is read from a directory that
        # took its name after it ended.
        if [[ -f $_prchip_wdir/memo ]]; then
          { [[ -f /dev/fd/97 && -O /dev/fd/97 ]] && IFS=' ' builtin read -r -a _prchip_sa <"/proc/$_prchip_wpid/stat" && [[ ${_prchip_sa[2]-} == [RSD] ]] && IFS= builtin read -r _prchip_line <&97; } 2>&- 97<>"$_prchip_wdir/memo" || :
        fi
        if [[ ${_prchip_line:0:10} > ${EPOCHSECONDS:-9999999999} && ${_prchip_line:10} == " ${_prchip_sa[21]-} "* ]]; then
          PRCHIP=${_prchip_line:${#_prchip_sa[21]}+12} _prchip_rc=0 _prchip_line='' _prchip_sa=()
          PRCHIP=${PRCHIP@E}
          return 0
        fi
      fi
    fi
    _prchip_key=''
    # shellcheck disable=SC2154 # the lower-case proxy names are the user's
@PRCHIP_ENV_BASH@
    _prchip_env=() _prchip_rc=1
    # git's configuration from the environment (git -c, direnv): the
    # GIT_CONFIG_COUNT pairs git reads, as many as the worker takes.
    case ${GIT_CONFIG_COUNT-} in
      [1-9]|[1-5][0-9]|6[0-4])
        if [[ ${GIT_CONFIG_COUNT@a} == *x* ]]; then
          for (( _prchip_i = 0; _prchip_i < GIT_CONFIG_COUNT; _prchip_i++ )); do
            _prchip_k=GIT_CONFIG_KEY_$_prchip_i _prchip_v=GIT_CONFIG_VALUE_$_prchip_i
            [[ -v $_prchip_k && ${!_prchip_k@a} == *x* ]] && _prchip_env+=("$_prchip_k=${!_prchip_k}")
            [[ -v $_prchip_v && ${!_prchip_v@a} == *x* ]] && _prchip_env+=("$_prchip_v=${!_prchip_v}")
          done
        fi ;;
    esac
    # A request the pipe could not hold (4 KiB when the user's pipes are
    # shrunk) could block this write for good once the worker is gone.
    if (( ${#_prchip_ae} + ${#PWD} > 3500 )) || { (( ${#_prchip_env[@]} )) && _prchip_line="${_prchip_env[*]}$_prchip_ae$PWD" && (( ${#_prchip_line} > 3500 )); }; then
      _prchip_rc=3 _prchip_ae='' _prchip_env=() _prchip_line='' _prchip_sa=()
      return 0
    fi
    if (( _prchip_dirty )) && [[ -z $_prchip_once ]]; then
      _prchip_once=$$.$RANDOM.$_prchip_id
    fi
    # The FIFOs are open for the question only, on descriptors 98 and 99
    # that bash puts back (closes) after the group, so no command started
    # later holds them; they must be the user's own (-O): a FIFO another
    # user put in their place would get the request's token. stderr is
    # closed first, so that an open of FIFOs that just went fails quietly
    # (_prchip_rc stays 1: the worker is gone).
    {
      # Messages are framed (BashFrame in protocol.go): a 16-digit header,
      # an id and the body's length, then the body. The worker writes a
      # frame of up to PIPE_BUF (4096) bytes in one write, which a pipe
      # makes whole or nothing, so once its first byte is here the rest
      # is too, and is read without -t: with a timeout bash's read makes
      # two more system calls a character (measured 20-30 us on an
      # answer of 40). Only the first byte is waited for with -t, and not
      # even that when the poll saw it.
      if [[ -O /dev/fd/98 && -O /dev/fd/99 ]] &&
        builtin printf '%s\0' prchip1 "$(( ++_prchip_id ))" "$PWD" "$_prchip_dirty${_prchip_once:+:$_prchip_once}" "@A=$_prchip_ae" "${_prchip_env[@]}" '' 1>&98; then
        _prchip_t0=${EPOCHREALTIME//[!0-9]/} _prchip_left=@PRCHIP_BUDGET_S@
        # Polled first, for a little: a shell that sleeps in read waits as
        # long again to be woken on a virtual machine (measured 20-40 us).
        for (( _prchip_i = 0; _prchip_i < 20; _prchip_i++ )); do
          builtin read -t 0 -u 99 && break
        done
        while :; do
          _prchip_rc=0 _prchip_line='' _prchip_body=''
          (( _prchip_i < 20 )) || IFS= builtin read -r -N 1 -t "$_prchip_left" -u 99 _prchip_line || _prchip_rc=$?
          if (( _prchip_rc == 0 )); then
            IFS= builtin read -r -N "$(( 16 - ${#_prchip_line} ))" -u 99 _prchip_n || _prchip_rc=$?
            _prchip_line+=$_prchip_n
          fi
          if (( _prchip_rc == 0 )) && [[ ${#_prchip_line} == 16 && $_prchip_line != *[!0-9]* ]]; then
            # 999999: a chip too long for one write, sent without its body.
            _prchip_n=$(( 10#${_prchip_line:10} ))
            if (( _prchip_n > 0 && _prchip_n < 4081 )); then
              IFS= builtin read -r -N "$_prchip_n" -u 99 _prchip_body || _prchip_rc=$?
            fi
          elif (( _prchip_rc == 0 )); then
            _prchip_rc=1 # not the worker's
            break
          fi
          if (( _prchip_rc > 128 )); then
            _prchip_rc=2
            break
          elif (( _prchip_rc != 0 )); then
            _prchip_rc=1
            break
          fi
          if (( 10#${_prchip_line:0:10} == _prchip_id && _prchip_n > 4080 )); then
            _prchip_rc=3 # the one-shot render draws it
            break
          elif (( 10#${_prchip_line:0:10} == _prchip_id )); then
            PRCHIP=${_prchip_body@E} _prchip_key=$_prchip_mk
            break
          elif (( 10#${_prchip_line:0:10} == 0 )); then
            _prchip_wpid=$_prchip_body
          fi
          # Another message (hello, or an answer that came too late): the
          # next is waited for with what is left of the budget.
          _prchip_left=$(( _prchip_t0 + _prchip_budget - ${EPOCHREALTIME//[!0-9]/} ))
          if (( _prchip_left <= 0 )); then
            _prchip_rc=2
            break
          fi
          builtin printf -v _prchip_left '%d.%06d' "$(( _prchip_left / 1000000 ))" "$(( _prchip_left % 1000000 ))"
          _prchip_i=20
        done
      fi
    } 2>&- 98<>"$_prchip_wdir/req" 99<>"$_prchip_wdir/resp" || :
    # Globals outlive the question: what it carried (tokens, git -c
    # values) must not stay in the shell after `unset GH_TOKEN`.
    _prchip_ae='' _prchip_env=() _prchip_line='' _prchip_sa=()
    return 0
  }

  # PROMPT_COMMAND may be a string or (bash 5.1+) an array: keep what is there.
  if [[ "$(declare -p PROMPT_COMMAND 2>/dev/null)" == "declare -a"* ]]; then
    PROMPT_COMMAND=(_prchip_hook "${PROMPT_COMMAND[@]}")
  elif [[ -z ${PROMPT_COMMAND-} ]]; then
    PROMPT_COMMAND=_prchip_hook
  else
    PROMPT_COMMAND="_prchip_hook;${PROMPT_COMMAND}"
  fi
fi
if [[ -n $_prchip_aliases ]]; then
  'builtin' 'shopt' '-s' 'expand_aliases'
fi
'builtin' 'unset' '_prchip_aliases'
