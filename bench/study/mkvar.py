import re, sys
# mkvar.py GEN.kernels.cu PREFIX OUTDIR: variants of a generated program function
src, prefix, out = sys.argv[1:4]
text = open(src).read()
lines = text.split('\n')
start = next(i for i, l in enumerate(lines) if l.startswith('/// One program instance of') and 'exec scope cta' in l)
end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith(('/// cpu mode', '/// One program instance')))
def variant(name, f):
    body = '\n'.join(lines[start:end])
    body = f(body)
    open(f'{out}/{prefix}_{name}.cu', 'w').write('\n'.join(lines[:start]) + '\n' + body + '\n' + '\n'.join(lines[end:]))
s1 = lambda b: re.sub(r'(v[0-9]+)\.stride\(1\)', '(int64_t)1', b)
def i32(b):
    b = s1(b)
    head, rest = b.split('{', 1)
    rest = rest.replace('int64_t', 'int32_t').replace('(int32_t)1 << tile', '(int32_t)1 << tile')
    return head + '{' + rest
variant('gen', lambda b: b)
variant('s1', s1)
variant('i32', i32)
