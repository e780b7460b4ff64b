#!/bin/sh
echo "Baton: Prisma's native schema engine is not used here." >&2
echo "Migrations are applied by 'npm start' / the test setup (lib/server/db/migrate.ts);" >&2
echo "new migrations are written with 'npm run db:migration -- <name>'. See prisma/README.md." >&2
exit 1
