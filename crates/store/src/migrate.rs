//! The migrations of both backends, embedded in the binary.
//!
//! The dialects differ only in the id column and integer type names, so each backend has its
//! own folder with the same numbered files. The files are included at compile time and handed
//! to sqlx's migrator, which records what it applied in `_sqlx_migrations`.

use std::{borrow::Cow, future::Future, pin::Pin};

use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};

/// One embedded migration: version, description, SQL.
type Embedded = (i64, &'static str, &'static str);

const SQLITE: &[Embedded] = &[
    (
        1,
        "init",
        include_str!("../migrations/sqlite/0001_init.sql"),
    ),
    (
        2,
        "ranked",
        include_str!("../migrations/sqlite/0002_ranked.sql"),
    ),
    (
        3,
        "leaderboard indexes",
        include_str!("../migrations/sqlite/0003_leaderboard_indexes.sql"),
    ),
    (
        4,
        "clock ply",
        include_str!("../migrations/sqlite/0004_clock_ply.sql"),
    ),
    (
        5,
        "live moves",
        include_str!("../migrations/sqlite/0005_live_moves.sql"),
    ),
    (
        6,
        "live games by id",
        include_str!("../migrations/sqlite/0006_live_games_by_id.sql"),
    ),
];

const POSTGRES: &[Embedded] = &[
    (
        1,
        "init",
        include_str!("../migrations/postgres/0001_init.sql"),
    ),
    (
        2,
        "ranked",
        include_str!("../migrations/postgres/0002_ranked.sql"),
    ),
    (
        3,
        "leaderboard indexes",
        include_str!("../migrations/postgres/0003_leaderboard_indexes.sql"),
    ),
    (
        4,
        "clock ply",
        include_str!("../migrations/postgres/0004_clock_ply.sql"),
    ),
    (
        5,
        "live moves",
        include_str!("../migrations/postgres/0005_live_moves.sql"),
    ),
    (
        6,
        "live games by id",
        include_str!("../migrations/postgres/0006_live_games_by_id.sql"),
    ),
];

#[derive(Debug)]
struct Source(&'static [Embedded]);

type BoxDynError = Box<dyn std::error::Error + Send + Sync>;

impl MigrationSource<'static> for Source {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async move {
            Ok(self
                .0
                .iter()
                .map(|&(version, description, sql)| {
                    Migration::new(
                        version,
                        Cow::Borrowed(description),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

/// The migrator for SQLite.
pub(crate) async fn sqlite() -> Result<Migrator, sqlx::migrate::MigrateError> {
    Migrator::new(Source(SQLITE)).await
}

/// The migrator for PostgreSQL.
pub(crate) async fn postgres() -> Result<Migrator, sqlx::migrate::MigrateError> {
    Migrator::new(Source(POSTGRES)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_backends_have_the_same_migration_versions() {
        let versions = |m: &[Embedded]| m.iter().map(|e| (e.0, e.1)).collect::<Vec<_>>();
        assert_eq!(versions(SQLITE), versions(POSTGRES));
    }
}
