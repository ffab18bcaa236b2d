# prchip for fish: prchip init fish | source   (in ~/.config/fish/config.fish)
#
# The hook keeps the chip in $PRCHIP. Print it from your prompt, for example:
#   function fish_prompt
#       printf '%s %s> ' (prompt_pwd) $PRCHIP
#   end
# fish prints variables as text, so a chip can never run as code.
if not set -q _prchip_hooked
    set -g _prchip_hooked 1
    set -g PRCHIP ''
    set -g _prchip_exe @PRCHIP_EXE@

    function _prchip_preexec --on-event fish_preexec
        set -l words (string split -n ' ' -- $argv[1])
        if contains -- "$words[1]" @PRCHIP_INVALIDATE_ON@
            set -g _prchip_dirty 1
        end
    end

    function _prchip_prompt --on-event fish_prompt
        set -l ret $status
        if set -q _prchip_dirty
            set -e _prchip_dirty
            $_prchip_exe invalidate >/dev/null 2>&1
        end
        # GOMAXPROCS=1: fewer runtime threads, about 1 ms less per prompt.
        set -g PRCHIP (GOMAXPROCS=1 $_prchip_exe prompt --shell fish 2>/dev/null)
        return $ret
    end
end
