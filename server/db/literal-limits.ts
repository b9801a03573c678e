// Statements that SQLite would compile again on every run, written so that it does not. SQLite
// re-prepares a statement (parses, plans and generates it anew: tens of µs) when a parameter bound
// to it may change its plan, and better-sqlite3 clears the bindings after each run, which counts
// as such a change. Two shapes of ours are affected:
// - A bound LIMIT: a token lookup with `limit ?` took 28 µs against 7 µs with `limit 1`, in process.
//   Kysely binds every limit, so a whole-number LIMIT is written into the SQL text instead. Limits
//   are the code's constants or validated page sizes, so the distinct texts stay few, and a number
//   written as text is no injection risk. OFFSET stays bound: it changes page by page and would
//   fill the statement cache.
// - An equality with a bound value in a join (`sessions.secret_hash = ?` joined to users), from
//   SQLite 3.54 on (better-sqlite3 13, Node.js 22 and later): its planner reads the bound value of
//   every `column = ?` term of a joined loop to weigh it (whereLoopOutputAdjust asks whether it is
//   0 or 1), which marks the parameter as one whose binding expires the statement. The session
//   check's statement cost 95 µs instead of 12 µs per run on Node.js 24 (17 µs on Node.js 20, SQLite
//   3.53). The value is written `+?` there: SQLite's unary plus returns its operand unchanged (same
//   value, type, and no affinity, as a bare parameter has none), the index is still used for the
//   term, and the planner no longer looks into the parameter. IN lists of one value count too:
//   SQLite turns `x in (?)` into `x = ?`.
// SQLite only: PostgreSQL plans a prepared statement itself (server/db/connect.ts).
import {
  BinaryOperationNode,
  type KyselyPlugin,
  LimitNode,
  OperationNodeTransformer,
  OperatorNode,
  type PluginTransformQueryArgs,
  PrimitiveValueListNode,
  RawNode,
  ValueListNode,
  ValueNode,
  type OperationNode,
} from 'kysely';

/** The comparisons whose bound right-hand value SQLite's planner looks into (`x in (?)` is `x = ?`). */
const EQUALITIES = new Set(['=', '==', 'is', 'in']);

/** `value` as `+?`, bound as before. */
const unaryPlus = (value: ValueNode): RawNode => RawNode.create(['+', ''], [value]);

function withoutBareParameter(right: OperationNode): OperationNode {
  if (ValueNode.is(right) && !right.immediate) return unaryPlus(right);
  if (PrimitiveValueListNode.is(right) && right.values.length === 1) return ValueListNode.create([unaryPlus(ValueNode.create(right.values[0]))]);
  return right;
}

class StatementsSqliteKeeps extends OperationNodeTransformer {
  protected override transformLimit(node: LimitNode): LimitNode {
    const { limit } = node;
    if (ValueNode.is(limit) && !limit.immediate && Number.isSafeInteger(limit.value) && (limit.value as number) >= 0)
      return LimitNode.create(ValueNode.createImmediate(limit.value));
    return super.transformLimit(node);
  }

  protected override transformBinaryOperation(node: BinaryOperationNode): BinaryOperationNode {
    const transformed = super.transformBinaryOperation(node);
    const { operator, rightOperand } = transformed;
    if (!OperatorNode.is(operator) || !EQUALITIES.has(operator.operator)) return transformed;
    const right = withoutBareParameter(rightOperand);
    return right === rightOperand ? transformed : BinaryOperationNode.create(transformed.leftOperand, operator, right);
  }
}

export class LiteralLimitsPlugin implements KyselyPlugin {
  private readonly transformer = new StatementsSqliteKeeps();

  transformQuery({ node }: PluginTransformQueryArgs) {
    return this.transformer.transformNode(node);
  }

  async transformResult<R>({ result }: { result: R }): Promise<R> {
    return result;
  }
}
