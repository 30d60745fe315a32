"""MongoDB: dropDatabase, drop and unfiltered deletes through mongosh/mongo, mongorestore --drop."""

from dcg.model import Pack, Rule

PACK = Pack(
    "database.mongodb",
    description="MongoDB: dropDatabase, collection drop, deleteMany({}) in mongosh/mongo --eval, "
    "and mongorestore --drop",
    rules=(
        Rule(
            "drop-database",
            severity="critical",
            pattern=r"^mongo(?:sh)?\s.*\.dropDatabase\(",
            reason="dropDatabase() deletes a whole MongoDB database",
            explanation="Every collection, index and document of the database is removed. "
            "MongoDB keeps no trash; only a backup or an oplog-based restore brings it back.",
            alternative="mongodump the database first (mongodump --db NAME) and check which "
            "database the connection string selects.",
            blocks=(
                "mongosh --eval 'db.dropDatabase()'",
                "mongo mongodb://db1/shop --eval 'db.getSiblingDB(\"shop\").dropDatabase()'",
            ),
            allows=("mongosh --eval 'db.stats()'", "mongodump --db shop --out /backup"),
        ),
        Rule(
            "drop-collection",
            severity="high",
            pattern=r"^mongo(?:sh)?\s.*\.(?:drop|dropAllUsers|dropIndexes)\(\s*\)",
            reason="drop() removes a collection with all its documents",
            explanation="Dropping a collection deletes its documents and indexes at once and "
            "cannot be undone.",
            alternative="mongodump --collection NAME first, or rename the collection and drop "
            "it later.",
            blocks=("mongosh shop --eval 'db.orders.drop()'", "mongo --eval 'db.users.drop( )'"),
            allows=(
                "mongosh shop --eval 'db.orders.countDocuments()'",
                "mongosh shop --eval 'db.orders.find().limit(5)'",
            ),
        ),
        Rule(
            "delete-all",
            severity="high",
            pattern=r"^mongo(?:sh)?\s.*\.(?:deleteMany|remove|updateMany)\(\s*\{\s*\}",
            reason="deleteMany({}) or remove({}) deletes every document in the collection",
            explanation="An empty filter matches all documents, so the whole collection is "
            "emptied (or rewritten, for updateMany).",
            alternative="Use a real filter and check it with countDocuments(filter) first.",
            blocks=(
                "mongosh shop --eval 'db.sessions.deleteMany({})'",
                "mongo --eval 'db.logs.remove({ })'",
            ),
            allows=(
                "mongosh shop --eval 'db.sessions.deleteMany({expired: true})'",
                "mongosh shop --eval 'db.sessions.countDocuments({})'",
            ),
        ),
        Rule(
            "restore-drop",
            severity="high",
            pattern=r"^mongorestore\s(?:.*\s)?--drop(?:\s|$)",
            reason="mongorestore --drop drops each collection before restoring it",
            explanation="Every collection present in the dump is dropped in the target before "
            "the dump is loaded, so newer documents in the target are lost.",
            alternative="Restore into another database (--nsFrom/--nsTo) and compare first.",
            blocks=("mongorestore --drop dump/", "mongorestore --uri mongodb://db1 --drop --gzip"),
            allows=("mongorestore dump/", "mongorestore --dryRun --drop dump/"),
        ),
    ),
    safe=(r"^mongorestore\s(?:.*\s)?--dryRun(?:\s|$)",),
)
