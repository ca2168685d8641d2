sh /dev/stdin <<'EOF2'
touch docs/superpowers/plans/x.md
EOF2
. /dev/stdin <<< 'cd docs'; bash <(echo 'touch a'); source <(printf 'rm %s\n' b c)
echo 'touch "$1"' | bash -s d; printf 'true\ntouch \x65\n\101\0102%%%s%b' f '\x67\c' | sh; echo -e 'touch \0150\x69\c j' | sh
