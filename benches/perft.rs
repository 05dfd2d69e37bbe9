use criterion::{criterion_group, criterion_main, Criterion};
use damas::core::perft::perft;
use damas::core::rules::{English, International, Turkish};
use damas::{Convention, Position};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("english d9", |b| {
        b.iter(|| perft(&Position::<English>::start(), 9, Convention::Drop))
    });
    g.bench_function("international d6", |b| {
        b.iter(|| perft(&Position::<International>::start(), 6, Convention::Drop))
    });
    g.bench_function("turkish d6", |b| {
        b.iter(|| perft(&Position::<Turkish>::start(), 6, Convention::Drop))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
