# prchip for bash: eval "$(prchip init bash)" in ~/.bashrc.
#
# The hook keeps the chip in $PRCHIP. Reference it by name in PS1, never
# paste its value (bash expands the variable when it draws the prompt):
#   PS1='\w ${PRCHIP:+$PRCHIP }\$ '
# or, in double quotes:  PS1="\w \${PRCHIP} \$ "
# bash cannot redraw a prompt from outside, so a refresh that finishes
# while the prompt is shown appears at the next prompt.
# Loading this twice installs the hook once.
if [[ -z ${_prchip_hooked-} ]]; then
  _prchip_hooked=1
  PRCHIP=''
  _prchip_exe=@PRCHIP_EXE@
  _prchip_dirty=0
  _prchip_last_hist=''

  # After git, gh, gt (config: invalidate_on) the repository is refreshed.
  # _prchip_scan takes one command's first word after VAR=value assignments
  # and precommand words (`GIT_EDITOR=vim git commit` counts). A DEBUG trap
  # sees each simple command before it runs, aliases expanded and without a
  # fork, so `gp` and `make && gh pr create` count too. When the user
  # already has a DEBUG trap, or bash-preexec (loaded by atuin and others)
  # takes ours over and runs it once per line, the last history line is
  # read instead, split at ; & | with aliases expanded by hand.
  _prchip_debug() {
    case ${BASH_COMMAND%%[[:space:]]*} in
      ''|[[:alpha:]_]*=*|command|builtin|exec|nohup|env|time|'!') _prchip_scan "$BASH_COMMAND" ;;
      @PRCHIP_INVALIDATE_CASE@) _prchip_dirty=1 ;;
    esac
    return 0
  }
  _prchip_scan() {
    local cmd=$1 w=''
    while [[ -n $cmd ]]; do
      cmd=${cmd#"${cmd%%[![:space:]]*}"}
      w=${cmd%%[[:space:]]*}
      case $w in
        [[:alpha:]_]*=*|command|builtin|exec|nohup|env|time|'!') cmd=${cmd#"$w"} w='' ;;
        *) break ;;
      esac
    done
    if [[ -n $w && -n ${2-} && -n ${BASH_ALIASES[$w]-} ]]; then
      w=${BASH_ALIASES[$w]}
      w=${w%%[[:space:]]*}
    fi
    case $w in
      '') ;;
      @PRCHIP_INVALIDATE_CASE@) _prchip_dirty=1 ;;
    esac
  }
  if [[ -z $(trap -p DEBUG) ]]; then
    trap '_prchip_debug' DEBUG
    _prchip_use_trap=1
  fi

  _prchip_hook() {
    local ret=$?
    if [[ -n ${__bp_imported-} ]]; then
      _prchip_use_trap=''
    fi
    if [[ -z ${_prchip_use_trap-} ]]; then
      local last part
      last=$(HISTTIMEFORMAT= builtin history 1 2>/dev/null)
      if [[ -n $last && $last != "$_prchip_last_hist" ]]; then
        _prchip_last_hist=$last
        last=${last#*[0-9]  }
        while IFS= read -r part; do
          _prchip_scan "$part" alias
        done <<< "${last//[;&|]/$'\n'}"
      fi
    fi
    if (( _prchip_dirty )); then
      _prchip_dirty=0
      GOMAXPROCS=1 "$_prchip_exe" invalidate >/dev/null 2>&1
    fi
    # GOMAXPROCS=1: one runtime processor from the start, about 0.5 ms less per prompt.
    PRCHIP=$(GOMAXPROCS=1 "$_prchip_exe" prompt --shell bash 2>/dev/null)
    return $ret
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
