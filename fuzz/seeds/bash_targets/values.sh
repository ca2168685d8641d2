w(){ shift; cp f "$@" "$1" "$#"; }; w a b c; function v { w "$2"; }; v x y; bash -c 'cp "$0" "$1"' a b
set -- p q; rm "$1" "$*"; a=(x y); a[5]=z; cp f "${a[1]}" "${a[@]}" "${a[$i]}" $a; touch "${v:-d}" "${u:=e}"
touch "$(echo f)" $(printf 'g%s ' h i) `echo j`; eval "$(echo 'touch k')"; echo l | xargs rm; echo m | xargs -I{} cp f {}
while read -r f g; do rm "$f" "$g"; done <<< 'n o'; echo p | while read -a r; do touch "${r[0]}"; done; read s <<< t
ls plans/*.md | xargs sed -i s/a/b/; alias w='cp a'; w u; alias ls='ls -l'; ls; unalias w; w v
