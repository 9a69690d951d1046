# The host suite's scripted-provider relay (scripted-relay.ts): this process's stdin and stdout are a
# scripted provider's, whose code runs in the suite's process. Bytes are relayed unchanged over three
# loopback connections to the suite, all opened here before anything is copied: "in" (from this stdin;
# only the copier holds it, so its end is this stdin's end), "out" (to this stdout) and "ctl" (the exit
# code, once "out" has ended). The copier is one process (cat, started straight from this shell: no
# subshell between) and holds neither stdout nor stderr, so they end with this process whoever kills it.
# Usage: bash --norc --noprofile -p scripted-relay.bash <port> <session>
exec 3<>"/dev/tcp/127.0.0.1/$1" 4<>"/dev/tcp/127.0.0.1/$1" 5<>"/dev/tcp/127.0.0.1/$1" || exit 97
printf '%s in\n' "$2" >&3
printf '%s out\n' "$2" >&4
printf '%s ctl\n' "$2" >&5
# without job control a background command's stdin would be /dev/null: it is given this stdin explicitly
cat <&0 >&3 3>&- 4<&- 5<&- 2>/dev/null &
exec 0</dev/null 3>&-
cat <&4
IFS= read -r code <&5
kill "$!" 2>/dev/null
exit "${code:-1}"
