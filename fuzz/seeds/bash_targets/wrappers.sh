watch -n 1 'echo x > openspec/changes/foo/approval.md'; flock /tmp/l -c 'touch a'; flock -c 'touch b' /tmp/l
script -qec 'npx approval-gates approve foo design' /dev/null <<< yes; su - root -c 'rm x'; runuser -u nobody -- touch y
busybox sh -c 'cp a b'; chroot --userspec=1:1 . sh -c 'echo > c'; strace -f -o t ltrace unshare -r --wd=d fakeroot -- proot -w e firejail --quiet touch f
parallel 'echo x > {}' ::: g h ::: i; echo j | parallel touch {}; parallel ::: 'touch k'
trap 'rm -f l' EXIT; git -c alias.w='!cp a m' w n; git -c alias.co='checkout --' co o
fish --command='touch p'; coproc w { cp a q; }; nohup setsid -f bash -c 'rm r' & disown
echo s | xargs sh -c 'echo x > "$1"' _; find . -name t -exec sh -c 'echo x > "$1" {}' _ {} \;
