// Realistic people for the seed: Chinese names drawn by the rough frequency of the surnames,
// login names in pinyin, mainland mobile numbers and job titles.
import type { Random } from './random';
import { WeightedPicker } from './random';

/** Common surnames with their pinyin and a rough share of the population (per mille). */
export const SURNAMES: readonly (readonly [string, string, number])[] = [
  ['王', 'wang', 71], ['李', 'li', 70], ['张', 'zhang', 67], ['刘', 'liu', 54], ['陈', 'chen', 45], ['杨', 'yang', 31],
  ['黄', 'huang', 22], ['赵', 'zhao', 21], ['吴', 'wu', 20], ['周', 'zhou', 19], ['徐', 'xu', 13], ['孙', 'sun', 12],
  ['马', 'ma', 11], ['朱', 'zhu', 11], ['胡', 'hu', 10], ['郭', 'guo', 10], ['何', 'he', 9], ['高', 'gao', 9],
  ['林', 'lin', 9], ['罗', 'luo', 9], ['郑', 'zheng', 8], ['梁', 'liang', 8], ['谢', 'xie', 6], ['宋', 'song', 6],
  ['唐', 'tang', 6], ['许', 'xu', 5], ['韩', 'han', 5], ['冯', 'feng', 5], ['邓', 'deng', 5], ['曹', 'cao', 5],
  ['彭', 'peng', 5], ['曾', 'zeng', 5], ['肖', 'xiao', 4], ['田', 'tian', 4], ['董', 'dong', 4], ['袁', 'yuan', 4],
  ['潘', 'pan', 4], ['于', 'yu', 4], ['蒋', 'jiang', 4], ['蔡', 'cai', 4], ['余', 'yu', 3], ['杜', 'du', 3],
  ['叶', 'ye', 3], ['程', 'cheng', 3], ['苏', 'su', 3], ['魏', 'wei', 3], ['吕', 'lv', 3], ['丁', 'ding', 3],
  ['任', 'ren', 3], ['沈', 'shen', 3], ['姚', 'yao', 3], ['卢', 'lu', 3], ['姜', 'jiang', 3], ['崔', 'cui', 3],
  ['钟', 'zhong', 3], ['谭', 'tan', 3], ['陆', 'lu', 3], ['汪', 'wang', 3], ['范', 'fan', 2], ['金', 'jin', 2],
  ['石', 'shi', 2], ['廖', 'liao', 2], ['贾', 'jia', 2], ['夏', 'xia', 2], ['韦', 'wei', 2], ['付', 'fu', 2],
  ['方', 'fang', 2], ['白', 'bai', 2], ['邹', 'zou', 2], ['孟', 'meng', 2], ['熊', 'xiong', 2], ['秦', 'qin', 2],
  ['邱', 'qiu', 2], ['江', 'jiang', 2], ['尹', 'yin', 2], ['薛', 'xue', 2], ['闫', 'yan', 2], ['段', 'duan', 2],
  ['雷', 'lei', 2], ['侯', 'hou', 2], ['龙', 'long', 2], ['史', 'shi', 2], ['欧阳', 'ouyang', 0.5], ['司马', 'sima', 0.2],
  ['上官', 'shangguan', 0.2],
];

/** Characters of given names with their pinyin. */
export const GIVEN_NAME_CHARS: readonly (readonly [string, string])[] = [
  ['伟', 'wei'], ['芳', 'fang'], ['娜', 'na'], ['敏', 'min'], ['静', 'jing'], ['丽', 'li'], ['强', 'qiang'], ['磊', 'lei'],
  ['军', 'jun'], ['洋', 'yang'], ['勇', 'yong'], ['艳', 'yan'], ['杰', 'jie'], ['娟', 'juan'], ['涛', 'tao'], ['明', 'ming'],
  ['超', 'chao'], ['秀', 'xiu'], ['霞', 'xia'], ['平', 'ping'], ['刚', 'gang'], ['桂', 'gui'], ['英', 'ying'], ['华', 'hua'],
  ['玉', 'yu'], ['萍', 'ping'], ['红', 'hong'], ['建', 'jian'], ['文', 'wen'], ['辉', 'hui'], ['鹏', 'peng'], ['宇', 'yu'],
  ['浩', 'hao'], ['欣', 'xin'], ['婷', 'ting'], ['雪', 'xue'], ['琳', 'lin'], ['晨', 'chen'], ['轩', 'xuan'], ['梓', 'zi'],
  ['涵', 'han'], ['子', 'zi'], ['怡', 'yi'], ['思', 'si'], ['佳', 'jia'], ['博', 'bo'], ['嘉', 'jia'], ['俊', 'jun'],
  ['雨', 'yu'], ['晓', 'xiao'], ['东', 'dong'], ['海', 'hai'], ['志', 'zhi'], ['新', 'xin'], ['国', 'guo'], ['春', 'chun'],
  ['慧', 'hui'], ['颖', 'ying'], ['倩', 'qian'], ['璐', 'lu'], ['瑶', 'yao'], ['逸', 'yi'], ['泽', 'ze'], ['睿', 'rui'],
  ['航', 'hang'], ['一', 'yi'], ['若', 'ruo'], ['诗', 'shi'], ['可', 'ke'], ['安', 'an'], ['宁', 'ning'], ['欢', 'huan'],
  ['晶', 'jing'], ['凯', 'kai'], ['斌', 'bin'], ['亮', 'liang'], ['飞', 'fei'], ['毅', 'yi'], ['彤', 'tong'], ['舒', 'shu'],
  ['翔', 'xiang'], ['阳', 'yang'], ['帆', 'fan'], ['昊', 'hao'], ['然', 'ran'], ['悦', 'yue'], ['妍', 'yan'], ['蕾', 'lei'],
  ['莉', 'li'], ['云', 'yun'], ['峰', 'feng'], ['鑫', 'xin'], ['楠', 'nan'], ['健', 'jian'], ['成', 'cheng'], ['宏', 'hong'],
  ['立', 'li'], ['旭', 'xu'], ['冰', 'bing'], ['波', 'bo'], ['丹', 'dan'],
];

export const JOB_TITLES = [
  '软件工程师', '高级软件工程师', '产品经理', '测试工程师', '运维工程师', '财务专员', '人事专员', '销售经理', '客服专员',
  '法务顾问', '行政助理', '数据分析师', '项目经理', '设计师', '实习生', '部门经理', '技术总监', '采购专员',
] as const;

/** Mainland mobile prefixes in use (all match the validation rules' 1[3-9] pattern). */
const MOBILE_PREFIXES = [
  '130', '131', '132', '133', '134', '135', '136', '137', '138', '139', '145', '147', '150', '151', '152', '153', '155',
  '156', '157', '158', '159', '166', '170', '171', '173', '175', '176', '177', '178', '180', '181', '182', '183', '184',
  '185', '186', '187', '188', '189', '191', '198', '199',
] as const;

/** Login names stay within the validation rules' 20 characters, leaving room for a disambiguating number. */
const MAX_LOGIN_BASE = 14;

export interface PersonName {
  realName: string;
  /** The pinyin login name before any disambiguating number (zhangwei, ouyangzy …). */
  loginBase: string;
}

const surnamePicker = new WeightedPicker(SURNAMES.map(([name, pinyin, weight]) => ({ value: { name, pinyin }, weight })));

export function personName(random: Random): PersonName {
  const surname = surnamePicker.pick(random);
  const given = Array.from({ length: random.chance(0.35) ? 1 : 2 }, () => random.pick(GIVEN_NAME_CHARS));
  const full = surname.pinyin + given.map(([, pinyin]) => pinyin).join('');
  const initials = surname.pinyin + given.map(([, pinyin]) => pinyin[0]).join('');
  return { realName: surname.name + given.map(([name]) => name).join(''), loginBase: full.length <= MAX_LOGIN_BASE ? full : initials };
}

export function mobilePhone(random: Random): string {
  return random.pick(MOBILE_PREFIXES) + String(random.int(0, 99_999_999)).padStart(8, '0');
}

/** Hands out login names that are not taken yet: zhangwei, zhangwei2, zhangwei3 … */
export class LoginNames {
  private readonly next = new Map<string, number>();

  constructor(private readonly taken: Set<string>) {}

  claim(base: string): string {
    let candidate = base;
    let number = this.next.get(base) ?? 2;
    while (this.taken.has(candidate)) candidate = `${base}${number++}`;
    this.next.set(base, number);
    this.taken.add(candidate);
    return candidate;
  }
}
