/** A row of `clusters`: a being's Business or Private root, or a sub-cluster of its scene nodes. bigint ids are strings. */
export interface ClusterRow {
  readonly id: string;
  readonly tenantId: string;
  readonly agent: string;
  readonly name: string;
  /** 'business' or 'private' on the two roots; null on sub-clusters. */
  readonly root: 'business' | 'private' | null;
  /** A root is its own parent. */
  readonly parentId: string;
  readonly centroid: number[] | null;
  readonly centroidModel: string | null;
  readonly createdAt: Date;
}
