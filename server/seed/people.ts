// Builds the seeded users: who they are (names, login names, email, mobile phone, job title),
// where they work (a tenant, weighted), whether they are enabled, and when they joined.
import type { Insertable } from 'kysely';
import type { UserTable } from '../db/tables';
import { Status, UserType } from '../../src/core/enums';
import { newId } from '../auth/secrets';
import { JOB_TITLES, LoginNames, mobilePhone, personName } from './names';
import { type Random, WeightedPicker } from './random';
import type { Workplace } from './organisation';

export type UserRow = Insertable<UserTable> & { id: string; username: string };

/** Shares of the seeded population (the rest of each share has the field). */
const SHARE = { withEmail: 0.85, withPhone: 0.92, disabled: 0.04, withTitle: 0.7 } as const;
/** Seeded users joined over the last three years, oldest first. */
const HISTORY_MS = 3 * 365 * 24 * 3_600_000;

export interface Placement {
  tenantId: string;
  domain: string;
  userType?: UserType;
  isAdmin?: boolean;
  isMaster?: boolean;
  description?: string;
}

export class PeopleFactory {
  private readonly logins: LoginNames;
  private readonly workplaces: WeightedPicker<Workplace>;

  /**
   * @param takenUsernames / takenPhones: what the database already holds (kept unique here).
   * @param passwordHash: one Argon2id hash shared by every seeded user (computed once).
   */
  constructor(
    private readonly random: Random,
    private readonly passwordHash: string,
    takenUsernames: Set<string>,
    private readonly takenPhones: Set<string>,
    workplaces: Workplace[],
  ) {
    this.logins = new LoginNames(takenUsernames);
    this.workplaces = new WeightedPicker(workplaces.map((workplace) => ({ value: workplace, weight: workplace.weight })));
  }

  private uniquePhone(): string {
    for (;;) {
      const phone = mobilePhone(this.random);
      if (!this.takenPhones.has(phone)) {
        this.takenPhones.add(phone);
        return phone;
      }
    }
  }

  /** A random workplace, by weight. */
  workplace(): Workplace {
    return this.workplaces.pick(this.random);
  }

  /** One user; `progress` in [0, 1] places their joining date along the seeded history. */
  person(placement: Placement, progress: number, now: number): UserRow {
    const { random } = this;
    const name = personName(random);
    const username = this.logins.claim(name.loginBase);
    const joined = Math.round(now - HISTORY_MS * (1 - progress) - random.int(0, 3_600_000));
    const updated = Math.min(now, joined + random.int(0, 30) * 86_400_000);
    const description = placement.description ?? (random.chance(SHARE.withTitle) ? random.pick(JOB_TITLES) : null);
    return {
      id: newId(),
      username,
      realName: name.realName,
      email: random.chance(SHARE.withEmail) ? `${username}@${placement.domain}` : null,
      mobilePhone: random.chance(SHARE.withPhone) ? this.uniquePhone() : null,
      description,
      availabilityStatus: !placement.isAdmin && random.chance(SHARE.disabled) ? Status.Disabled : Status.Enable,
      avatar: null,
      extraProp: '{}',
      userType: placement.userType ?? UserType.Tenant,
      tenantId: placement.tenantId,
      isAdmin: placement.isAdmin ? 1 : 0,
      isMaster: placement.isMaster ? 1 : 0,
      passwordHash: this.passwordHash,
      passwordChangedAt: joined,
      version: 1,
      createdAt: joined,
      updatedAt: updated,
    };
  }
}
