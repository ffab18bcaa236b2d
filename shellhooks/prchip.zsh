# prchip for zsh: eval "$(prchip init zsh)" in ~/.zshrc.
#
# The hook keeps the chip in $PRCHIP, already escaped for zsh. Reference it
# by name in single quotes (prompt_subst is turned on), never paste its value:
#   PROMPT='%~ ${PRCHIP:+$PRCHIP }%# '
#   RPROMPT='${PRCHIP}'
# When a background refresh finishes while the prompt is shown, the prompt
# is redrawn (zle -F), so the chip appears without pressing Enter.
# Loading this twice installs the hooks once.
if (( ! ${+_prchip_hooked} )); then
  typeset -g _prchip_hooked=1
  typeset -g PRCHIP=''
  typeset -g _prchip_exe=@PRCHIP_EXE@
  typeset -gi _prchip_dirty=0
  typeset -gi _prchip_fd=0
  typeset -gi _prchip_rearm=0
  setopt prompt_subst

  # After git, gh, gt (config: invalidate_on) the repository is refreshed.
  # Every command of the line counts, aliases expanded ($3), after VAR=value
  # assignments and precommand words: `gp`, `make && gh pr create` and
  # `GIT_EDITOR=vim git commit` all do.
  _prchip_preexec() {
    local w cmd=1
    for w in ${(z)${3:-$1}}; do
      if (( cmd )); then
        case $w in
          ([[:alpha:]_]*=*|command|builtin|exec|noglob|nocorrect|nohup|env|time|if|then|else|elif|while|until|do|'!'|'('|'{') continue ;;
          (@PRCHIP_INVALIDATE_CASE@) _prchip_dirty=1; return 0 ;;
        esac
        cmd=0
      fi
      case $w in
        ('&&'|'||'|';'|'|'|'|&'|'&'|'&!'|'&|'|'('|'{') cmd=1 ;;
      esac
    done
    return 0
  }

  # Renders the chip of the current directory into PRCHIP (extra flags: $@).
  # When a background refresh is in flight, a waiter (one at a time) tells
  # zle when it ends: it prints nothing, and its end makes the descriptor
  # readable.
  _prchip_render() {
    local out
    # GOMAXPROCS=1: the render is single-threaded work, and the Go runtime
    # then sets up one processor, not two (about 0.5 ms less per prompt).
    out=$(GOMAXPROCS=1 "$_prchip_exe" prompt --shell zsh --async "$@" 2>/dev/null)
    PRCHIP=${out%%$'\n'*}
    if [[ $out == *$'\n'refreshing ]] && (( _prchip_fd == 0 )) && [[ -o zle ]]; then
      exec {_prchip_fd}< <(GOMAXPROCS=1 "$_prchip_exe" prompt --shell zsh --wait 2>/dev/null)
      zle -F -w $_prchip_fd _prchip_ready
    fi
  }

  # A zle widget run when the waiter ends: so has the refresh. The chip is
  # rendered again where the shell is now (the user may have left that
  # repository or switched branches meanwhile). Once per prompt it may
  # start a refresh and a waiter of its own (the new branch or repository
  # may need one); after that it only reads, so a refresh that cannot
  # record its result never becomes a loop.
  _prchip_ready() {
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
      zle reset-prompt
    fi
  }
  zle -N _prchip_ready

  _prchip_precmd() {
    local ret=$?
    if (( _prchip_dirty )); then
      _prchip_dirty=0
      GOMAXPROCS=1 "$_prchip_exe" invalidate >/dev/null 2>&1
    fi
    _prchip_rearm=1
    _prchip_render
    return $ret
  }

  autoload -Uz add-zsh-hook
  add-zsh-hook precmd _prchip_precmd
  add-zsh-hook preexec _prchip_preexec
fi
