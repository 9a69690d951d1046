# The host suite's scripted-provider relay (scripted-relay.ts): this process's stdin and stdout are a
# scripted provider's, whose code runs in the suite's process. Bytes are relayed unchanged over three
# loopback connections to the suite: "out" (to this stdout), "ctl" (the exit code, once "out" has ended)
# and "in" (from this stdin; only the copier holds it, so its end is this stdin's end). The copier holds
# neither stdout nor stderr, so they end with this process whoever kills it.
# Usage: bash --norc --noprofile -p scripted-relay.bash <port> <session>
exec 4<>"/dev/tcp/127.0.0.1/$1" 5<>"/dev/tcp/127.0.0.1/$1" || exit 97
printf '%s out\n' "$2" >&4
printf '%s ctl\n' "$2" >&5
( exec 4<&- 5<&- 1>/dev/null 2>/dev/null 3<>"/dev/tcp/127.0.0.1/$1" || exit 97; printf '%s in\n' "$2" >&3; exec cat >&3 ) <&0 &
exec 0</dev/null
cat <&4
IFS= read -r code <&5
kill "$!" 2>/dev/null
exit "${code:-1}"
